// Package config reads the Java admin's application.properties keys from the
// places Spring Boot reads them, with Spring Boot's precedence, so that a
// deployment's existing arguments, environment and files work unchanged.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config is the typed, validated configuration. Field comments name the key.
type Config struct {
	ServerAddress string // server.address (bind address; empty = all interfaces)
	ServerPort    int    // server.port
	ContextPath   string // server.servlet.context-path, normalised to "/x" or ""

	Datasource Datasource
	Mail       Mail

	AccessToken      string // xxl.job.accessToken; blank disables the check
	I18n             string // xxl.job.i18n: zh_CN, zh_TC or en
	TriggerFastMax   int    // xxl.job.triggerpool.fast.max, at least 200
	TriggerSlowMax   int    // xxl.job.triggerpool.slow.max, at least 100
	LogRetentionDays int    // xxl.job.logretentiondays; -1 when below 7 (cleanup off)

	LogLevel string // logging.level.root

	// Generation is the schema generation the values were resolved for: 2
	// (the 2.4.2 admin's defaults and rules) until ForGeneration(3).
	Generation int
	// Schema is xxl.job.schema: the generation ("2.4" or "3.4") an empty
	// database is created as (new key).
	Schema string
	// AllowUnknownColumns is xxl.job.schema.allow-unknown-columns (new key).
	AllowUnknownColumns bool
	// ExecutorTimeout is xxl.job.timeout (3.x; seconds in the key): the
	// executor call timeout.
	ExecutorTimeout time.Duration
	// ScheduleBatchSize is xxl.job.schedule.batchsize (3.4.0): jobs per
	// schedule write-back statement; outside 50-500 it is 100, as in Java.
	ScheduleBatchSize int
	// SSO is xxl-sso.* (3.x login).
	SSO SSO

	Alarm Alarm // xxl.job.alarm.* (new keys; not in the Java admin)

	Console Console // xxl.job.console.* (new keys)

	OpenAPI OpenAPI // xxl.job.openapi.* (new keys)

	Durable Durable // xxl.job.durable-triggers* (new keys)
	HTTP    HTTP    // server.tomcat.* limits, read by their Spring Boot names

	// Workflows (xxl.job.workflows.enabled, new, default false) runs
	// workflows (docs/workflows.md): their tables are created at start and
	// their runs and schedules are moved along. It needs durable triggers.
	Workflows bool

	// Exposed lists the actuator endpoints named by
	// management.endpoints.web.exposure.include (Spring's key; "*" is all).
	// health is always served; prometheus only when named here.
	Exposed map[string]bool

	// Sources lists where each key's value came from, for the startup log.
	Sources map[string]string

	resolver resolver // kept for ForGeneration

	// IgnoredJVMFlags are the JAVA_OPTS words that are not -D options
	// (-Xmx512m, -XX:+UseG1GC, ...): meaningful to a JVM only, so they are
	// accepted for a swapped-in image and reported once at start-up.
	IgnoredJVMFlags []string
}

// SSO holds the xxl-sso keys of the 3.x login.
type SSO struct {
	TokenKey     string        // xxl-sso.token.key: the login cookie's name
	TokenTimeout time.Duration // xxl-sso.token.timeout (ms): how long a login lasts
}

// Datasource holds spring.datasource.* and the Hikari pool settings.
type Datasource struct {
	URL             string // spring.datasource.url; empty means the embedded SQLite default
	Username        string
	Password        string
	MinIdle         int           // spring.datasource.hikari.minimum-idle
	MaxPoolSize     int           // spring.datasource.hikari.maximum-pool-size
	IdleTimeout     time.Duration // spring.datasource.hikari.idle-timeout
	MaxLifetime     time.Duration // spring.datasource.hikari.max-lifetime
	ConnTimeout     time.Duration // spring.datasource.hikari.connection-timeout
	ValidateTimeout time.Duration // spring.datasource.hikari.validation-timeout
}

// Mail holds spring.mail.* as the Java admin's e-mail alarm uses them.
type Mail struct {
	Host             string
	Port             int
	Username         string
	Password         string
	From             string
	Auth             bool // spring.mail.properties.mail.smtp.auth
	StartTLSEnable   bool // ...mail.smtp.starttls.enable
	StartTLSRequired bool // ...mail.smtp.starttls.required
	ImplicitTLS      bool // ...mail.smtp.socketFactory.class = javax.net.ssl.SSLSocketFactory, or mail.smtp.ssl.enable
	ConnTimeout      time.Duration
	Timeout          time.Duration
}

// Alarm holds the alarm channels beyond Java's e-mail. These keys are new:
// the Java admin ignores them, so one properties file serves both.
type Alarm struct {
	EmailEnabled  bool          // xxl.job.alarm.email.enabled (default true)
	WebhookURLs   []string      // xxl.job.alarm.webhook.url: comma-separated, every failed job is posted to each
	WebhookFormat string        // xxl.job.alarm.webhook.format: auto (by host), generic, dingtalk, feishu, wecom
	WebhookSecret string        // xxl.job.alarm.webhook.secret: signing secret of DingTalk / Feishu robots
	Timeout       time.Duration // xxl.job.alarm.timeout (ms, default 5000): per send
}

// Console holds the web console's own keys. These keys are new: the Java
// admin ignores them.
type Console struct {
	// LegacyCookie (xxl.job.console.legacy-cookie) issues and accepts the
	// Java admin's unsigned login cookie, for a rolling migration where a
	// load balancer sends one user to Java and Go admins in turn.
	LegacyCookie bool
	// Secret (xxl.job.console.secret) signs login cookies; every admin
	// sharing a database needs the same one. Empty: derived (see app).
	Secret string
	// Signin is the company sign-in (OIDC, LDAP): signin.go.
	Signin Signin
	// StatementTimeout (xxl.job.console.statement-timeout, default 5s)
	// bounds each statement of the log and job lists; CountTimeout
	// (xxl.job.console.count-timeout, default 80ms) is what a list's exact
	// total may take before it is shown as a lower bound.
	StatementTimeout time.Duration
	CountTimeout     time.Duration
}

// OpenAPI holds the job management API's keys (new: the Java admin has no
// such API and ignores them).
type OpenAPI struct {
	// Token (xxl.job.openapi.token, or its .file) is the bearer token API
	// callers send; empty switches the API off. It must differ from the
	// executors' access token and have at least 16 characters.
	Token string
	// User (xxl.job.openapi.user) names the console user whose role and
	// group permissions the token acts with; empty acts as an admin.
	User string
}

// Durable holds the keys of durable retries and child triggers (new: the
// Java admin has no such thing and ignores them).
type Durable struct {
	// Enabled (xxl.job.durable-triggers, default true) stores every retry
	// and child trigger this admin decides in xxl_job_pending_trigger
	// (created at start when missing) until it is sent, and sweeps up those
	// other admins of ours left. false uses no such table, as Java.
	Enabled bool
	// Lease (xxl.job.durable-triggers.lease, default 30 s; a number is
	// milliseconds, or a duration such as 30s) is how long after an admin
	// last moved a pending trigger any admin may take it over. A trigger
	// whose /run may be under way is held longer, by the executor call
	// limit.
	Lease time.Duration
	// SettleAfter (xxl.job.durable-triggers.settle-after, default empty:
	// derived from the executor call limit, about 11 minutes) is how old a
	// log row left without any result must be before this admin settles
	// it (core/thread's Settler). Shorter than the longest a live admin
	// keeps a trigger in flight, it could send a trigger twice: lower it
	// only where the database has no outages to wait through (tests).
	SettleAfter time.Duration
}

// HTTP holds the connection limits of the admin's HTTP server. The keys are
// Spring Boot's Tomcat ones; the meaning is ours (documented per field).
type HTTP struct {
	// MaxConnections (server.tomcat.max-connections, default 8192 as in
	// Tomcat) caps the open connections; beyond it new connections wait
	// to be accepted, as in Tomcat.
	MaxConnections int
	// ConnectionTimeout (server.tomcat.connection-timeout, default 20 s;
	// a number is milliseconds, or a duration such as 20s) bounds reading
	// one whole request, headers and body. Tomcat bounds each read; a
	// client that sends one byte at a time would defeat that.
	ConnectionTimeout time.Duration
	// ShutdownGrace (spring.lifecycle.timeout-per-shutdown-phase, default
	// 5 s; Spring's is 30 s) is how long requests in progress may finish
	// at shutdown before their connections are closed.
	ShutdownGrace time.Duration
}

// DefaultSQLiteURL is used when no spring.datasource.url is given. The Java
// admin defaults to a local MySQL; an embedded store makes `make run` work on
// a fresh machine, and any configured URL behaves exactly as in Java.
const DefaultSQLiteURL = "jdbc:sqlite:./data/xxl-job.db"

// defaults are the bundled application.properties of the 2.4.2 admin
// (config.md §2), except spring.datasource.url (see DefaultSQLiteURL).
var defaults = map[string]string{
	"server.port":                                          "8080",
	"server.servlet.context-path":                          "/xxl-job-admin",
	"spring.datasource.url":                                "",
	"spring.datasource.username":                           "root",
	"spring.datasource.password":                           "root_pwd",
	"spring.datasource.hikari.minimum-idle":                "10",
	"spring.datasource.hikari.maximum-pool-size":           "30",
	"spring.datasource.hikari.idle-timeout":                "30000",
	"spring.datasource.hikari.max-lifetime":                "900000",
	"spring.datasource.hikari.connection-timeout":          "10000",
	"spring.datasource.hikari.validation-timeout":          "1000",
	"spring.mail.host":                                     "smtp.qq.com",
	"spring.mail.port":                                     "25",
	"spring.mail.username":                                 "xxx@qq.com",
	"spring.mail.password":                                 "xxx",
	"spring.mail.from":                                     "xxx@qq.com",
	"spring.mail.properties.mail.smtp.auth":                "true",
	"spring.mail.properties.mail.smtp.starttls.enable":     "true",
	"spring.mail.properties.mail.smtp.starttls.required":   "true",
	"spring.mail.properties.mail.smtp.socketFactory.class": "javax.net.ssl.SSLSocketFactory",
	"xxl.job.accessToken":                                  "default_token",
	"xxl.job.i18n":                                         "zh_CN",
	"xxl.job.triggerpool.fast.max":                         "200",
	"xxl.job.triggerpool.slow.max":                         "100",
	"xxl.job.logretentiondays":                             "30",
	"logging.level.root":                                   "info",
	"xxl.job.alarm.email.enabled":                          "true",
	"xxl.job.alarm.webhook.url":                            "",
	"xxl.job.alarm.webhook.format":                         "auto",
	"xxl.job.alarm.webhook.secret":                         "",
	"xxl.job.alarm.timeout":                                "5000",
	"xxl.job.console.legacy-cookie":                        "false",
	"xxl.job.console.statement-timeout":                    "5s",
	"xxl.job.console.count-timeout":                        "80ms",
	"xxl.job.console.secret":                               "",
	"xxl.job.console.password-login":                       "true",
	"xxl.job.console.break-glass-user":                     "",
	"xxl.job.console.signin.session-timeout":               "12h",
	"xxl.job.console.oidc.scopes":                          "openid,profile,email",
	"xxl.job.console.oidc.display-name":                    "OpenID Connect",
	"xxl.job.console.oidc.username-claim":                  "preferred_username",
	"xxl.job.console.oidc.group-claim":                     "groups",
	"xxl.job.console.ldap.user-filter":                     "(uid={0})",
	"xxl.job.console.ldap.user-attribute":                  "uid",
	"xxl.job.console.ldap.group-filter":                    "(member={0})",
	"xxl.job.console.ldap.group-attribute":                 "cn",
	"xxl.job.console.ldap.timeout":                         "5000",
	"xxl.job.console.ldap.start-tls":                       "false",
	"xxl.job.console.oidc.group-permissions":               "",
	"xxl.job.console.ldap.group-permissions":               "",
	"xxl.job.console.oidc.admin-values":                    "",
	"xxl.job.console.ldap.admin-groups":                    "",
	"xxl.job.console.oidc.issuer":                          "",
	"xxl.job.console.ldap.url":                             "",
	"xxl.job.console.oidc.redirect-url":                    "",
	"xxl.job.console.oidc.admin-claim":                     "",
	"xxl.job.console.oidc.client-id":                       "",
	"xxl.job.console.ldap.base-dn":                         "",
	"xxl.job.console.ldap.group-base-dn":                   "",
	"xxl.job.console.ldap.bind-dn":                         "",
	"xxl.job.console.ldap.ca-file":                         "",
	"xxl.job.console.oidc.client-secret":                   "",
	"xxl.job.console.ldap.bind-password":                   "",
	"xxl.job.openapi.token":                                "",
	"xxl.job.openapi.user":                                 "",
	"xxl.job.durable-triggers":                             "true",
	"xxl.job.durable-triggers.lease":                       "30s",
	"xxl.job.workflows.enabled":                            "false",
	"xxl.job.durable-triggers.settle-after":                "",
	"server.tomcat.max-connections":                        "8192",
	"server.tomcat.connection-timeout":                     "20000",
	"management.endpoints.web.exposure.include":            "health",
	"spring.lifecycle.timeout-per-shutdown-phase":          "5s",
	"xxl.job.schema":                                       "2.4",
	"xxl.job.schema.allow-unknown-columns":                 "false",
	"xxl.job.timeout":                                      "3",
	"xxl.job.schedule.batchsize":                           "100",
	"xxl-sso.token.key":                                    "xxl_job_login_token",
	"xxl-sso.token.timeout":                                "604800000",
}

// defaults3 are the values of the 3.4.2 admin's bundled
// application.properties that differ from 2.4.2's; they apply on a 3.x
// database (ForGeneration) where the key is not given.
var defaults3 = map[string]string{
	"server.servlet.context-path":  "/",
	"xxl.job.triggerpool.fast.max": "300",
	"xxl.job.triggerpool.slow.max": "200",
}

// secretKeys may be given as a file instead of a value: KEY.file names a
// file whose content (without a trailing newline) is the value, so secrets
// stay out of command lines, environment dumps and properties files.
var secretKeys = []string{"spring.datasource.password", "spring.mail.password", "xxl.job.accessToken",
	"xxl.job.console.secret", "xxl.job.alarm.webhook.secret", "xxl.job.openapi.token",
	"xxl.job.console.oidc.client-secret", "xxl.job.console.ldap.bind-password"}

// Env abstracts the process environment and file system so Load is testable.
type Env struct {
	Args     []string // command-line arguments without the program name
	Environ  []string // KEY=VALUE pairs, as os.Environ
	ReadFile func(name string) ([]byte, error)
}

// OSEnv returns the real process environment.
func OSEnv(args []string) Env {
	return Env{Args: args, Environ: os.Environ(), ReadFile: os.ReadFile}
}

// Load resolves every key from, highest precedence first: command-line
// `--key=value`, the PARAMS variable (the Docker image appends it to the
// command line), `-Dkey=value` system properties (arguments and JAVA_OPTS),
// relaxed environment names, an external properties file, then defaults.
func Load(e Env) (*Config, error) {
	opts, sysProps, configFile, err := parseArgs(e.Args)
	if err != nil {
		return nil, err
	}
	envL := envLayer(e.Environ)
	params := map[string]string{}
	if p, ok := envL.env["PARAMS"]; ok && strings.TrimSpace(p) != "" {
		words, err := SplitParams(p)
		if err != nil {
			return nil, fmt.Errorf("PARAMS: %w", err)
		}
		pOpts, pSys, pFile, err := parseArgs(words)
		if err != nil {
			return nil, fmt.Errorf("PARAMS: %w", err)
		}
		params = pOpts
		for k, v := range pSys {
			if _, ok := sysProps[k]; !ok {
				sysProps[k] = v
			}
		}
		if configFile == "" {
			configFile = pFile
		}
	}
	var jvmFlags []string
	if jo, ok := envL.env["JAVA_OPTS"]; ok {
		words, err := SplitParams(jo)
		if err != nil {
			return nil, fmt.Errorf("JAVA_OPTS: %w", err)
		}
		for _, w := range words {
			if !strings.HasPrefix(w, "-D") || len(w) == 2 {
				jvmFlags = append(jvmFlags, w)
				continue
			}
			// -Dkey without a value is the empty string, as for the JVM.
			k, v, _ := strings.Cut(w[2:], "=")
			if _, seen := sysProps[k]; !seen {
				sysProps[k] = v
			}
		}
	}
	layers := []layer{newLayer("command line", opts), newLayer("PARAMS", params), newLayer("system properties", sysProps), envL}

	fileLayer, err := loadFile(e, configFile, layers)
	if err != nil {
		return nil, err
	}
	if fileLayer != nil {
		layers = append(layers, *fileLayer)
	}
	layers = append(layers, newLayer("defaults", defaults))
	r := resolver{layers: layers, sources: map[string]string{}, readFile: e.ReadFile}
	c, err := build(r, 2)
	if err != nil {
		return nil, err
	}
	c.IgnoredJVMFlags = jvmFlags
	c.resolver = r
	return c, nil
}

// ForGeneration resolves the configuration again for the schema generation
// the database turned out to be (the admin reads the database before it
// binds anything): on 3 the 3.4.2 admin's defaults apply where a key is not
// given — context path /, trigger pools 300/200 — and its rule that a log
// retention below 3 days (not 7) turns the cleanup off.
func (c *Config) ForGeneration(major int) (*Config, error) {
	if major == c.Generation {
		return c, nil
	}
	r := c.resolver
	if major == 3 {
		layers := append([]layer(nil), r.layers[:len(r.layers)-1]...)
		r.layers = append(layers, newLayer("defaults (3.4.2)", defaults3), r.layers[len(r.layers)-1])
	}
	r.sources = map[string]string{}
	out, err := build(r, major)
	if err != nil {
		return nil, err
	}
	out.IgnoredJVMFlags = c.IgnoredJVMFlags
	out.resolver = c.resolver
	return out, nil
}

// loadFile finds the external properties file: --config, then
// spring.config.location from the higher layers, then ./config/application.properties
// and ./application.properties (Spring Boot's order). A named file must exist.
func loadFile(e Env, configFile string, higher []layer) (*layer, error) {
	named := configFile
	if named == "" {
		named, _ = resolver{layers: higher}.raw("spring.config.location")
		named = strings.TrimPrefix(named, "file:")
	}
	if named != "" {
		props, err := readProps(e, named)
		if err != nil {
			return nil, err
		}
		l := newLayer(named, props)
		return &l, nil
	}
	for _, candidate := range []string{"config/application.properties", "application.properties"} {
		props, err := readProps(e, candidate)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		l := newLayer(candidate, props)
		return &l, nil
	}
	return nil, nil
}

func readProps(e Env, name string) (map[string]string, error) {
	b, err := e.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", name, err)
	}
	props, err := ParseProperties(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", name, err)
	}
	return props, nil
}

type resolver struct {
	layers   []layer
	sources  map[string]string
	readFile func(name string) ([]byte, error)
}

func (r resolver) raw(key string) (string, bool) {
	for _, l := range r.layers {
		if v, ok := l.lookup(key); ok {
			if r.sources != nil {
				r.sources[key] = l.name
			}
			return v, true
		}
	}
	return "", false
}

func (r resolver) str(key string) string {
	v, _ := r.raw(key)
	return v
}

// secret is a secret key's value: from the file KEY.file names when that
// key is set, else the key itself.
func (r resolver) secret(key string, errs *[]error) string {
	name, ok := r.raw(key + ".file")
	if !ok || strings.TrimSpace(name) == "" {
		return r.str(key)
	}
	if r.readFile == nil {
		*errs = append(*errs, fmt.Errorf("%s.file: files cannot be read here", key))
		return ""
	}
	b, err := r.readFile(strings.TrimSpace(name))
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s.file: %w", key, err))
		return ""
	}
	return strings.TrimRight(string(b), "\r\n")
}

func (r resolver) integer(key string, errs *[]error) int {
	v := strings.TrimSpace(r.str(key))
	n, err := strconv.Atoi(v)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s: %q is not an integer", key, v))
	}
	return n
}

func (r resolver) millis(key string, errs *[]error) time.Duration {
	return time.Duration(r.integer(key, errs)) * time.Millisecond
}

// boolean follows Java's Boolean.parseBoolean: only "true" (any case) is true.
func (r resolver) boolean(key string) bool {
	return strings.EqualFold(strings.TrimSpace(r.str(key)), "true")
}

func build(r resolver, generation int) (*Config, error) {
	var errs []error
	c := &Config{
		ServerAddress: strings.TrimSpace(r.str("server.address")),
		ServerPort:    r.integer("server.port", &errs),
		ContextPath:   normalizeContextPath(r.str("server.servlet.context-path")),
		AccessToken:   r.secret("xxl.job.accessToken", &errs),
		I18n:          normalizeI18n(r.str("xxl.job.i18n")),
		LogLevel:      strings.ToLower(strings.TrimSpace(r.str("logging.level.root"))),
		Sources:       r.sources,
		Generation:    generation,
	}
	if c.ServerPort < 0 || c.ServerPort > 65535 {
		errs = append(errs, fmt.Errorf("server.port: %d is out of range 0-65535", c.ServerPort))
	}
	c.TriggerFastMax = max(r.integer("xxl.job.triggerpool.fast.max", &errs), 200)
	c.TriggerSlowMax = max(r.integer("xxl.job.triggerpool.slow.max", &errs), 100)
	c.LogRetentionDays = r.integer("xxl.job.logretentiondays", &errs)
	if minRetention := map[int]int{2: 7, 3: 3}[generation]; c.LogRetentionDays < minRetention {
		c.LogRetentionDays = -1
	}
	c.Schema = strings.TrimSpace(r.str("xxl.job.schema"))
	switch c.Schema {
	case "2.4", "3.4":
	default:
		errs = append(errs, fmt.Errorf("xxl.job.schema: %q is not 2.4 or 3.4", c.Schema))
	}
	c.AllowUnknownColumns = r.boolean("xxl.job.schema.allow-unknown-columns")
	if c.ExecutorTimeout = time.Duration(r.integer("xxl.job.timeout", &errs)) * time.Second; c.ExecutorTimeout <= 0 {
		errs = append(errs, fmt.Errorf("xxl.job.timeout: must be at least 1 (seconds)"))
	}
	if c.ScheduleBatchSize = r.integer("xxl.job.schedule.batchsize", &errs); c.ScheduleBatchSize < 50 || c.ScheduleBatchSize > 500 {
		c.ScheduleBatchSize = 100
	}
	c.SSO = SSO{TokenKey: strings.TrimSpace(r.str("xxl-sso.token.key")), TokenTimeout: r.millis("xxl-sso.token.timeout", &errs)}
	if c.SSO.TokenKey == "" {
		c.SSO.TokenKey = "xxl_job_login_token" // xxl-sso's own fallback for a blank key
	}
	c.Datasource = Datasource{
		URL:             strings.TrimSpace(r.str("spring.datasource.url")),
		Username:        r.str("spring.datasource.username"),
		Password:        r.secret("spring.datasource.password", &errs),
		MinIdle:         r.integer("spring.datasource.hikari.minimum-idle", &errs),
		MaxPoolSize:     r.integer("spring.datasource.hikari.maximum-pool-size", &errs),
		IdleTimeout:     r.millis("spring.datasource.hikari.idle-timeout", &errs),
		MaxLifetime:     r.millis("spring.datasource.hikari.max-lifetime", &errs),
		ConnTimeout:     r.millis("spring.datasource.hikari.connection-timeout", &errs),
		ValidateTimeout: r.millis("spring.datasource.hikari.validation-timeout", &errs),
	}
	if c.Datasource.URL == "" {
		c.Datasource.URL = DefaultSQLiteURL
	}
	if c.Datasource.MaxPoolSize < 1 {
		errs = append(errs, fmt.Errorf("spring.datasource.hikari.maximum-pool-size: must be at least 1"))
	}
	c.Mail = buildMail(r, &errs)
	c.Alarm = Alarm{
		EmailEnabled:  r.boolean("xxl.job.alarm.email.enabled"),
		WebhookFormat: strings.ToLower(strings.TrimSpace(r.str("xxl.job.alarm.webhook.format"))),
		WebhookSecret: r.secret("xxl.job.alarm.webhook.secret", &errs),
		Timeout:       r.millis("xxl.job.alarm.timeout", &errs),
	}
	c.Console = Console{LegacyCookie: r.boolean("xxl.job.console.legacy-cookie"),
		Secret: r.secret("xxl.job.console.secret", &errs), Signin: buildSignin(r, &errs),
		StatementTimeout: springDuration("xxl.job.console.statement-timeout", r.str("xxl.job.console.statement-timeout"), &errs),
		CountTimeout:     springDuration("xxl.job.console.count-timeout", r.str("xxl.job.console.count-timeout"), &errs)}
	if c.Console.StatementTimeout <= 0 || c.Console.CountTimeout <= 0 {
		errs = append(errs, fmt.Errorf("xxl.job.console.statement-timeout and count-timeout: must be positive"))
	}
	c.OpenAPI = OpenAPI{Token: r.secret("xxl.job.openapi.token", &errs), User: strings.TrimSpace(r.str("xxl.job.openapi.user"))}
	switch {
	case c.OpenAPI.Token == "":
	case len(c.OpenAPI.Token) < 16:
		errs = append(errs, fmt.Errorf("xxl.job.openapi.token: use at least 16 characters"))
	case c.OpenAPI.Token == c.AccessToken:
		errs = append(errs, fmt.Errorf("xxl.job.openapi.token: must differ from xxl.job.accessToken (every executor knows that one)"))
	}
	c.Durable = Durable{Enabled: r.boolean("xxl.job.durable-triggers"),
		Lease: springDuration("xxl.job.durable-triggers.lease", r.str("xxl.job.durable-triggers.lease"), &errs)}
	if c.Durable.Lease < time.Second {
		errs = append(errs, fmt.Errorf("xxl.job.durable-triggers.lease: must be at least 1s"))
	}
	c.Workflows = r.boolean("xxl.job.workflows.enabled")
	if c.Workflows && !c.Durable.Enabled {
		errs = append(errs, fmt.Errorf("xxl.job.workflows.enabled: workflows need xxl.job.durable-triggers=true (every node trigger is a pending row)"))
	}
	if v := r.str("xxl.job.durable-triggers.settle-after"); strings.TrimSpace(v) != "" {
		c.Durable.SettleAfter = springDuration("xxl.job.durable-triggers.settle-after", v, &errs)
		if c.Durable.SettleAfter < time.Second {
			errs = append(errs, fmt.Errorf("xxl.job.durable-triggers.settle-after: must be at least 1s"))
		}
	}
	c.HTTP = HTTP{MaxConnections: r.integer("server.tomcat.max-connections", &errs),
		ConnectionTimeout: springDuration("server.tomcat.connection-timeout", r.str("server.tomcat.connection-timeout"), &errs),
		ShutdownGrace:     springDuration("spring.lifecycle.timeout-per-shutdown-phase", r.str("spring.lifecycle.timeout-per-shutdown-phase"), &errs)}
	if c.HTTP.MaxConnections < 1 {
		errs = append(errs, fmt.Errorf("server.tomcat.max-connections: must be at least 1"))
	}
	if c.HTTP.ConnectionTimeout <= 0 {
		errs = append(errs, fmt.Errorf("server.tomcat.connection-timeout: must be positive"))
	}
	c.Exposed = map[string]bool{}
	for _, e := range strings.Split(r.str("management.endpoints.web.exposure.include"), ",") {
		if e = strings.TrimSpace(e); e != "" {
			c.Exposed[e] = true
		}
	}
	for _, u := range strings.Split(r.str("xxl.job.alarm.webhook.url"), ",") {
		if u = strings.TrimSpace(u); u != "" {
			c.Alarm.WebhookURLs = append(c.Alarm.WebhookURLs, u)
		}
	}
	switch c.Alarm.WebhookFormat {
	case "auto", "generic", "dingtalk", "feishu", "wecom":
	default:
		errs = append(errs, fmt.Errorf("xxl.job.alarm.webhook.format: %q is not one of auto, generic, dingtalk, feishu, wecom", c.Alarm.WebhookFormat))
	}
	switch c.LogLevel {
	case "trace", "debug", "info", "warn", "error", "off":
	default:
		errs = append(errs, fmt.Errorf("logging.level.root: %q is not one of trace, debug, info, warn, error, off", c.LogLevel))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

func buildMail(r resolver, errs *[]error) Mail {
	const p = "spring.mail.properties.mail.smtp."
	m := Mail{
		Host:             strings.TrimSpace(r.str("spring.mail.host")),
		Port:             r.integer("spring.mail.port", errs),
		Username:         r.str("spring.mail.username"),
		Password:         r.secret("spring.mail.password", errs),
		From:             r.str("spring.mail.from"),
		Auth:             r.boolean(p + "auth"),
		StartTLSEnable:   r.boolean(p + "starttls.enable"),
		StartTLSRequired: r.boolean(p + "starttls.required"),
		ImplicitTLS: strings.TrimSpace(r.str(p+"socketFactory.class")) == "javax.net.ssl.SSLSocketFactory" ||
			r.boolean(p+"ssl.enable"),
	}
	if v, ok := r.raw(p + "connectiontimeout"); ok {
		m.ConnTimeout = millisOf(p+"connectiontimeout", v, errs)
	}
	if v, ok := r.raw(p + "timeout"); ok {
		m.Timeout = millisOf(p+"timeout", v, errs)
	}
	return m
}

func millisOf(key, v string, errs *[]error) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s: %q is not an integer", key, v))
	}
	return time.Duration(n) * time.Millisecond
}

// springDuration reads a Spring Boot Duration: a bare number in
// milliseconds, or a number with one of the units ns, us, ms, s, m, h, d.
func springDuration(key, v string, errs *[]error) time.Duration {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.Duration(n) * time.Millisecond
	}
	if n, ok := strings.CutSuffix(v, "d"); ok {
		if days, err := strconv.ParseInt(n, 10, 64); err == nil {
			return time.Duration(days) * 24 * time.Hour
		}
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s: %q is not a duration (milliseconds, or e.g. 20s)", key, v))
	}
	return d
}

// Exposes reports whether an actuator endpoint is exposed.
func (c *Config) Exposes(endpoint string) bool { return c.Exposed["*"] || c.Exposed[endpoint] }

// normalizeI18n applies the Java rule: anything but zh_CN, zh_TC, en is zh_CN.
func normalizeI18n(v string) string {
	switch v {
	case "zh_CN", "zh_TC", "en":
		return v
	}
	return "zh_CN"
}

// normalizeContextPath gives "/x" without a trailing slash, or "" for root,
// as the servlet container does for "", "/" and "x/".
func normalizeContextPath(v string) string {
	v = strings.Trim(strings.TrimSpace(v), "/")
	if v == "" {
		return ""
	}
	return "/" + v
}
