package config

import (
	"io/fs"
	"strings"
	"testing"
	"time"
)

func fakeEnv(args []string, environ []string, files map[string]string) Env {
	return Env{Args: args, Environ: environ, ReadFile: func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}}
}

// TestPrecedence checks Spring Boot's order (config.md §1): command line >
// PARAMS > system properties > environment > external file > defaults.
func TestPrecedence(t *testing.T) {
	file := map[string]string{"application.properties": "server.port=1001\nxxl.job.i18n=en\n"}
	cases := []struct {
		name    string
		args    []string
		environ []string
		files   map[string]string
		want    int
		source  string
	}{
		{"default", nil, nil, nil, 8080, "defaults"},
		{"file", nil, nil, file, 1001, "application.properties"},
		{"env over file", nil, []string{"SERVER_PORT=1002"}, file, 1002, "environment"},
		{"sysprop over env", nil, []string{"SERVER_PORT=1002", "JAVA_OPTS=-Dserver.port=1003 -Xmx1g"}, file, 1003, "system properties"},
		{"PARAMS over sysprop", nil, []string{"JAVA_OPTS=-Dserver.port=1003", "PARAMS=--server.port=1004"}, file, 1004, "PARAMS"},
		{"args over PARAMS", []string{"--server.port=1005"}, []string{"PARAMS=--server.port=1004"}, file, 1005, "command line"},
		{"-D argument", []string{"-Dserver.port=1006"}, []string{"SERVER_PORT=1002"}, nil, 1006, "system properties"},
		{"named config file", []string{"--config", "my.properties"}, nil, map[string]string{"my.properties": "server.port=1007", "application.properties": "server.port=1"}, 1007, "my.properties"},
		{"spring.config.location", []string{"--spring.config.location=file:/etc/x.properties"}, nil, map[string]string{"/etc/x.properties": "server.port=1008"}, 1008, "/etc/x.properties"},
		{"config dir beats root", nil, nil, map[string]string{"config/application.properties": "server.port=1009", "application.properties": "server.port=1"}, 1009, "config/application.properties"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(fakeEnv(tc.args, tc.environ, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if c.ServerPort != tc.want {
				t.Errorf("port = %d, want %d", c.ServerPort, tc.want)
			}
			if got := c.Sources["server.port"]; got != tc.source {
				t.Errorf("source = %q, want %q", got, tc.source)
			}
		})
	}
}

// TestRelaxedEnvironmentNames: Spring maps SPRING_DATASOURCE_URL,
// XXL_JOB_ACCESSTOKEN, SERVER_SERVLET_CONTEXT_PATH / CONTEXTPATH (config.md §1).
func TestRelaxedEnvironmentNames(t *testing.T) {
	c, err := Load(fakeEnv(nil, []string{
		"SPRING_DATASOURCE_URL=jdbc:mysql://db:3306/xxl_job",
		"XXL_JOB_ACCESSTOKEN=s3cret",
		"SERVER_SERVLET_CONTEXT_PATH=/jobs/",
		"SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=7",
	}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Datasource.URL != "jdbc:mysql://db:3306/xxl_job" || c.AccessToken != "s3cret" || c.ContextPath != "/jobs" || c.Datasource.MaxPoolSize != 7 {
		t.Fatalf("got %+v", c)
	}
}

func TestRelaxedKeysInFilesAndArgs(t *testing.T) {
	c, err := Load(fakeEnv([]string{"--xxl.job.access-token=a"}, nil, map[string]string{
		"application.properties": "SPRING.DATASOURCE.HIKARI.MAXIMUMPOOLSIZE=9",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.AccessToken != "a" || c.Datasource.MaxPoolSize != 9 {
		t.Fatalf("got token %q pool %d", c.AccessToken, c.Datasource.MaxPoolSize)
	}
}

// TestClampsAndRules: config.md §2.4 (pool minimums, i18n fallback, retention
// below 7 disables cleanup), and our sqlite default for a missing URL.
func TestClampsAndRules(t *testing.T) {
	c, err := Load(fakeEnv([]string{
		"--xxl.job.triggerpool.fast.max=10", "--xxl.job.triggerpool.slow.max=500",
		"--xxl.job.i18n=fr", "--xxl.job.logretentiondays=6", "--xxl.job.accessToken=",
		"--server.servlet.context-path=/",
	}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.TriggerFastMax != 200 || c.TriggerSlowMax != 500 || c.I18n != "zh_CN" || c.LogRetentionDays != -1 || c.AccessToken != "" || c.ContextPath != "" {
		t.Fatalf("got %+v", c)
	}
	if c.Datasource.URL != DefaultSQLiteURL {
		t.Fatalf("url %q", c.Datasource.URL)
	}
	if c.Datasource.ConnTimeout != 10*time.Second || !c.Mail.ImplicitTLS || !c.Mail.Auth {
		t.Fatalf("defaults wrong: %+v", c)
	}
}

func TestInvalidValuesNameTheKey(t *testing.T) {
	cases := map[string]string{
		"--server.port=abc":                        "server.port",
		"--server.port=70000":                      "server.port",
		"--xxl.job.triggerpool.fast.max=x":         "xxl.job.triggerpool.fast.max",
		"--xxl.job.logretentiondays=1.5":           "xxl.job.logretentiondays",
		"--spring.datasource.hikari.idle-timeout=": "spring.datasource.hikari.idle-timeout",
		"--logging.level.root=loud":                "logging.level.root",
		"--xxl.job.console.count-timeout=soon":     "xxl.job.console.count-timeout",
		"--xxl.job.console.statement-timeout=0":    "xxl.job.console.statement-timeout",
		"stray":                                    "unexpected argument",
	}
	for arg, want := range cases {
		_, err := Load(fakeEnv([]string{arg}, nil, nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want mention of %q", arg, err, want)
		}
	}
	if _, err := Load(fakeEnv([]string{"--config", "missing.properties"}, nil, nil)); err == nil || !strings.Contains(err.Error(), "missing.properties") {
		t.Errorf("missing named file: %v", err)
	}
}

func TestUnknownKeysIgnoredAndJarTolerated(t *testing.T) {
	c, err := Load(fakeEnv([]string{"-jar", "xxl-job-admin-2.4.2.jar", "--no.such.key=1", "--spring.datasource.username=u"}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Datasource.Username != "u" {
		t.Fatal(c.Datasource.Username)
	}
}

func TestSplitParams(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"  --a=1   --b=2 ", []string{"--a=1", "--b=2"}, false},
		{`--spring.datasource.password="p w" --x='a "b"'`, []string{"--spring.datasource.password=p w", `--x=a "b"`}, false},
		{`--a=one\ two`, []string{"--a=one two"}, false},
		{`--a="x\"y"`, []string{`--a=x"y`}, false},
		{`--a=''`, []string{"--a="}, false},
		{`--a="open`, nil, true},
		{`--a=\`, nil, true},
	}
	for _, tc := range cases {
		got, err := SplitParams(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("%q: got %q want %q", tc.in, got, tc.want)
		}
	}
}

func TestPARAMSWithQuotedPassword(t *testing.T) {
	c, err := Load(fakeEnv(nil, []string{`PARAMS=--spring.datasource.url=jdbc:mysql://db:3306/xxl_job?useSSL=false --spring.datasource.password='a b&c'`}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Datasource.Password != "a b&c" || !strings.HasSuffix(c.Datasource.URL, "useSSL=false") {
		t.Fatalf("%+v", c.Datasource)
	}
}

func TestAlarmKeys(t *testing.T) {
	c, err := Load(fakeEnv([]string{"--xxl.job.alarm.webhook.url= https://a/x , https://b/y,", "--xxl.job.alarm.webhook.format=DingTalk", "--xxl.job.alarm.email.enabled=false"}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Alarm.WebhookURLs) != 2 || c.Alarm.WebhookURLs[1] != "https://b/y" || c.Alarm.WebhookFormat != "dingtalk" || c.Alarm.EmailEnabled || c.Alarm.Timeout != 5*time.Second {
		t.Fatalf("%+v", c.Alarm)
	}
	if _, err := Load(fakeEnv([]string{"--xxl.job.alarm.webhook.format=slack"}, nil, nil)); err == nil || !strings.Contains(err.Error(), "xxl.job.alarm.webhook.format") {
		t.Fatalf("err %v", err)
	}
}

// TestSecretsFromFiles checks that every secret key can be read from the
// file KEY.file names (trailing newline dropped), that the file wins over
// the value, and that an unreadable file stops start-up naming the key.
func TestSecretsFromFiles(t *testing.T) {
	get := map[string]func(c *Config) string{
		"spring.datasource.password":         func(c *Config) string { return c.Datasource.Password },
		"spring.mail.password":               func(c *Config) string { return c.Mail.Password },
		"xxl.job.accessToken":                func(c *Config) string { return c.AccessToken },
		"xxl.job.console.secret":             func(c *Config) string { return c.Console.Secret },
		"xxl.job.alarm.webhook.secret":       func(c *Config) string { return c.Alarm.WebhookSecret },
		"xxl.job.openapi.token":              func(c *Config) string { return c.OpenAPI.Token },
		"xxl.job.console.oidc.client-secret": func(c *Config) string { return c.Console.Signin.OIDC.ClientSecret },
		"xxl.job.console.ldap.bind-password": func(c *Config) string { return c.Console.Signin.LDAP.BindPassword },
	}
	if len(get) != len(secretKeys) {
		t.Fatalf("test covers %d keys, secretKeys has %d", len(get), len(secretKeys))
	}
	for _, key := range secretKeys {
		c, err := Load(fakeEnv([]string{"--" + key + "=inline", "--" + key + ".file=/run/secrets/s"}, nil,
			map[string]string{"/run/secrets/s": "from-the-secret-file\n"}))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if got := get[key](c); got != "from-the-secret-file" {
			t.Errorf("%s = %q, want the file's content", key, got)
		}
		_, err = Load(fakeEnv([]string{"--" + key + ".file=/missing"}, nil, nil))
		if err == nil || !strings.Contains(err.Error(), key+".file") {
			t.Errorf("%s: missing file gave %v", key, err)
		}
	}
}

// TestOpenAPIKeys: the job API is off without a token; a token must be
// long enough and differ from the executors' access token.
func TestOpenAPIKeys(t *testing.T) {
	c, err := Load(fakeEnv(nil, nil, nil))
	if err != nil || c.OpenAPI != (OpenAPI{}) {
		t.Fatalf("default: %+v %v", c.OpenAPI, err)
	}
	c, err = Load(fakeEnv([]string{"--xxl.job.openapi.token=0123456789abcdef", "--xxl.job.openapi.user= deployer "}, nil, nil))
	if err != nil || c.OpenAPI.Token != "0123456789abcdef" || c.OpenAPI.User != "deployer" {
		t.Fatalf("set: %+v %v", c.OpenAPI, err)
	}
	for _, args := range [][]string{
		{"--xxl.job.openapi.token=short"},
		{"--xxl.job.openapi.token=0123456789abcdef", "--xxl.job.accessToken=0123456789abcdef"},
	} {
		if _, err := Load(fakeEnv(args, nil, nil)); err == nil || !strings.Contains(err.Error(), "xxl.job.openapi.token") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestHTTPLimitsAndExposure: the Spring Boot names of the connection cap,
// the request read limit and the actuator exposure list.
func TestHTTPLimitsAndExposure(t *testing.T) {
	c, err := Load(fakeEnv(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP.MaxConnections != 8192 || c.HTTP.ConnectionTimeout != 20*time.Second || c.Exposes("prometheus") || !c.Exposes("health") {
		t.Errorf("defaults %+v %v", c.HTTP, c.Exposed)
	}
	for _, tt := range []struct {
		args    []string
		timeout time.Duration
		prom    bool
	}{
		{[]string{"--server.tomcat.connection-timeout=5000"}, 5 * time.Second, false},
		{[]string{"--server.tomcat.connection-timeout=3s", "--management.endpoints.web.exposure.include=health, prometheus"}, 3 * time.Second, true},
		{[]string{"--server.tomcat.connection-timeout=1m", "--management.endpoints.web.exposure.include=*"}, time.Minute, true},
	} {
		c, err := Load(fakeEnv(tt.args, nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		if c.HTTP.ConnectionTimeout != tt.timeout || c.Exposes("prometheus") != tt.prom {
			t.Errorf("%v: %v %v", tt.args, c.HTTP.ConnectionTimeout, c.Exposed)
		}
	}
	for _, bad := range []string{"--server.tomcat.connection-timeout=soon", "--server.tomcat.max-connections=0"} {
		if _, err := Load(fakeEnv([]string{bad}, nil, nil)); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(strings.Split(bad, "=")[0], "--")) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// The console lists' time bounds: defaults, milliseconds or a duration.
func TestConsoleListBounds(t *testing.T) {
	c, err := Load(fakeEnv(nil, nil, nil))
	if err != nil || c.Console.StatementTimeout != 5*time.Second || c.Console.CountTimeout != 80*time.Millisecond {
		t.Fatalf("defaults: %v %v %v", c.Console.StatementTimeout, c.Console.CountTimeout, err)
	}
	c, err = Load(fakeEnv([]string{"--xxl.job.console.statement-timeout=20s", "--xxl.job.console.count-timeout=250"}, nil, nil))
	if err != nil || c.Console.StatementTimeout != 20*time.Second || c.Console.CountTimeout != 250*time.Millisecond {
		t.Fatalf("set: %v %v %v", c.Console.StatementTimeout, c.Console.CountTimeout, err)
	}
}
