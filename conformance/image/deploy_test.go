package image

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// deployFacts are what every deployment example must agree on, read from
// the Dockerfile, mk/image.mk and the admin's configuration defaults.
type deployFacts struct {
	df         *Dockerfile
	image      string // repository name, without tag
	port       int    // EXPOSE
	uid        int    // USER
	healthPath string // what `xxl-admin-go health` asks by default
	loginPath  string // the console's login page
}

func loadFacts(t *testing.T) deployFacts {
	t.Helper()
	df, err := ParseDockerfile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if len(df.Expose) != 1 {
		t.Fatalf("Dockerfile EXPOSE %v: want one port", df.Expose)
	}
	port, err := strconv.Atoi(df.Expose[0])
	if err != nil {
		t.Fatal(err)
	}
	uid, _, err := resolveUser(df.User, "")
	if err != nil || uid == 0 {
		t.Fatalf("Dockerfile USER %q: want a numeric non-root user (%v)", df.User, err)
	}
	if !slices.Equal(df.HealthCheck, append(slices.Clone(df.Entrypoint), "health")) {
		t.Fatalf("HEALTHCHECK CMD %q: want the entrypoint's health command", df.HealthCheck)
	}
	// The published name follows the source label: ghcr.io/<owner>/<repo>.
	source := df.Labels["org.opencontainers.image.source"]
	repo, ok := strings.CutPrefix(source, "https://github.com/")
	if !ok {
		t.Fatalf("source label %q is not a GitHub URL", source)
	}
	image := "ghcr.io/" + repo
	if got := makeVar(t, "../../mk/image.mk", "IMAGE"); got != image {
		t.Fatalf("mk/image.mk IMAGE = %q, want %q (from the source label)", got, image)
	}
	defaults, err := config.Load(config.Env{ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }})
	if err != nil {
		t.Fatal(err)
	}
	if defaults.ServerPort != port {
		t.Fatalf("EXPOSE %d but the admin listens on %d by default", port, defaults.ServerPort)
	}
	return deployFacts{df: df, image: image, port: port, uid: uid,
		healthPath: defaults.ContextPath + "/actuator/health", loginPath: defaults.ContextPath + "/toLogin"}
}

// makeVar reads `NAME ?= value` (or := / =) from a makefile.
func makeVar(t *testing.T, file, name string) string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	re := regexp.MustCompile(`^` + name + `\s*[?:]?=\s*(\S+)\s*$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("%s: no %s", file, name)
	return ""
}

// loadAs checks that the environment a manifest gives the container is a
// valid configuration of the admin, and returns it.
func loadAs(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	c, err := config.Load(config.Env{Environ: environ, ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }})
	if err != nil {
		t.Fatalf("the container's environment is not a valid configuration: %v", err)
	}
	return c
}

// composeVar replaces Compose's ${VAR:-default} with the default.
var composeVar = regexp.MustCompile(`\$\{[A-Z_]+:-([^}]*)\}`)

// TestComposeMatchesDockerfile: deploy/docker-compose.yml runs the image
// under its published name on the Dockerfile's port, with the Java image's
// variables, the image's health command and the applogs volume, after a
// MariaDB whose database the datasource URL names.
func TestComposeMatchesDockerfile(t *testing.T) {
	facts := loadFacts(t)
	b, err := os.ReadFile("../../deploy/docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Environment map[string]string `yaml:"environment"`
			Ports       []string          `yaml:"ports"`
			Volumes     []string          `yaml:"volumes"`
			DependsOn   map[string]struct {
				Condition string `yaml:"condition"`
			} `yaml:"depends_on"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(b, &compose); err != nil {
		t.Fatal(err)
	}
	admin, ok := compose.Services["admin"]
	if !ok {
		t.Fatal("no admin service")
	}
	db, ok := compose.Services["db"]
	if !ok || !strings.HasPrefix(db.Image, "mariadb:") {
		t.Fatalf("db service %+v: want MariaDB", db)
	}
	if !strings.HasPrefix(admin.Image, facts.image+":") {
		t.Errorf("admin image %q, want %s:TAG", admin.Image, facts.image)
	}
	if !slices.ContainsFunc(admin.Ports, func(p string) bool { return strings.HasSuffix(p, ":"+strconv.Itoa(facts.port)) }) {
		t.Errorf("admin ports %q do not publish %d", admin.Ports, facts.port)
	}
	if want := append([]string{"CMD"}, facts.df.HealthCheck...); !slices.Equal(admin.Healthcheck.Test, want) {
		t.Errorf("admin healthcheck %q, want %q", admin.Healthcheck.Test, want)
	}
	if admin.DependsOn["db"].Condition != "service_healthy" {
		t.Errorf("admin does not wait for a healthy db: %+v", admin.DependsOn)
	}
	if !slices.ContainsFunc(admin.Volumes, func(v string) bool { return strings.HasSuffix(v, ":/data/applogs") }) {
		t.Errorf("admin volumes %q: want one on /data/applogs as the Java image", admin.Volumes)
	}
	env := map[string]string{}
	for k, v := range admin.Environment {
		if _, declared := facts.df.Env[k]; !declared {
			t.Errorf("admin sets %s, which the image does not declare (the interface is PARAMS and JAVA_OPTS)", k)
		}
		env[k] = composeVar.ReplaceAllString(v, "$1")
	}
	c := loadAs(t, env)
	wantURL := "jdbc:mysql://db:3306/" + db.Environment["MARIADB_DATABASE"] + "?"
	if !strings.HasPrefix(c.Datasource.URL, wantURL) || c.Datasource.Username != db.Environment["MARIADB_USER"] ||
		c.Datasource.Password != composeVar.ReplaceAllString(db.Environment["MARIADB_PASSWORD"], "$1") {
		t.Errorf("datasource %q user %q: want %s... with the db service's user and password", c.Datasource.URL, c.Datasource.Username, wantURL)
	}
	if !slices.Equal(c.IgnoredJVMFlags, []string{"-Xmx512m"}) || c.AccessToken == "" {
		t.Errorf("JAVA_OPTS: flags %q token %q", c.IgnoredJVMFlags, c.AccessToken)
	}
}

// k8sObject is the part of a Kubernetes object the checks read.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	StringData map[string]string `yaml:"stringData"`
	Spec       struct {
		Replicas int              `yaml:"replicas"`
		Selector yaml.Node        `yaml:"selector"`
		Ports    []k8sServicePort `yaml:"ports"`
		Template k8sPodTemplate   `yaml:"template"`
	} `yaml:"spec"`
}

type k8sServicePort struct {
	Port       int    `yaml:"port"`
	TargetPort string `yaml:"targetPort"`
}

type k8sPodTemplate struct {
	Metadata struct {
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		SecurityContext struct {
			RunAsNonRoot bool `yaml:"runAsNonRoot"`
			RunAsUser    int  `yaml:"runAsUser"`
		} `yaml:"securityContext"`
		Containers []struct {
			Image string `yaml:"image"`
			Ports []struct {
				Name          string `yaml:"name"`
				ContainerPort int    `yaml:"containerPort"`
			} `yaml:"ports"`
			Env []struct {
				Name      string `yaml:"name"`
				Value     string `yaml:"value"`
				ValueFrom *struct {
					SecretKeyRef struct {
						Name string `yaml:"name"`
						Key  string `yaml:"key"`
					} `yaml:"secretKeyRef"`
				} `yaml:"valueFrom"`
			} `yaml:"env"`
			ReadinessProbe k8sProbe   `yaml:"readinessProbe"`
			LivenessProbe  k8sProbe   `yaml:"livenessProbe"`
			VolumeMounts   []k8sMount `yaml:"volumeMounts"`
		} `yaml:"containers"`
	} `yaml:"spec"`
}

type k8sMount struct {
	MountPath string `yaml:"mountPath"`
}

type k8sProbe struct {
	Exec *struct {
		Command []string `yaml:"command"`
	} `yaml:"exec,omitempty"`
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet,omitempty"`
}

// TestKubernetesMatchesDockerfile: deploy/kubernetes runs two replicas of
// the published image as its non-root user, on the Dockerfile's port, the
// datasource password from the Secret, readiness by the image's health
// command, liveness by the login page, and a Service in front.
func TestKubernetesMatchesDockerfile(t *testing.T) {
	facts := loadFacts(t)
	objects := map[string]k8sObject{}
	files, _ := filepath.Glob("../../deploy/kubernetes/*.yaml")
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(f)
		for {
			var o k8sObject
			err := dec.Decode(&o)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			objects[o.Kind] = o
		}
		f.Close()
	}
	dep, svc, secret := objects["Deployment"], objects["Service"], objects["Secret"]
	if dep.Kind == "" || svc.Kind == "" || secret.Kind == "" {
		t.Fatalf("want a Deployment, a Service and a Secret in deploy/kubernetes, have %v", slices.Sorted(maps.Keys(objects)))
	}
	if dep.Spec.Replicas != 2 {
		t.Errorf("replicas %d, want 2", dep.Spec.Replicas)
	}
	pod := dep.Spec.Template
	if sc := pod.Spec.SecurityContext; !sc.RunAsNonRoot || sc.RunAsUser != facts.uid {
		t.Errorf("pod securityContext %+v, want runAsNonRoot and the image's uid %d", sc, facts.uid)
	}
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Spec.Containers))
	}
	ctr := pod.Spec.Containers[0]
	if !strings.HasPrefix(ctr.Image, facts.image+":") {
		t.Errorf("image %q, want %s:TAG", ctr.Image, facts.image)
	}
	portByName := map[string]int{}
	for _, p := range ctr.Ports {
		portByName[p.Name] = p.ContainerPort
	}
	if portByName["http"] != facts.port {
		t.Errorf("container port http = %d, want %d", portByName["http"], facts.port)
	}

	env := map[string]string{}
	for _, e := range ctr.Env {
		switch {
		case e.ValueFrom != nil:
			ref := e.ValueFrom.SecretKeyRef
			v, ok := secret.StringData[ref.Key]
			if ref.Name != secret.Metadata.Name || !ok {
				t.Errorf("env %s refers to secret %s key %s, which deploy/kubernetes does not define", e.Name, ref.Name, ref.Key)
			}
			env[e.Name] = v
		default:
			env[e.Name] = e.Value
		}
	}
	if _, ok := env["PARAMS"]; !ok {
		t.Error("no PARAMS: the datasource goes where the Java image's users put it")
	}
	c := loadAs(t, env)
	if c.Datasource.Password != secret.StringData["datasource-password"] || !strings.HasPrefix(c.Datasource.URL, "jdbc:mysql://") {
		t.Errorf("datasource %q password %q: want MySQL with the password from the Secret", c.Datasource.URL, c.Datasource.Password)
	}
	if c.Sources["spring.datasource.password"] != "environment" {
		t.Errorf("password comes from %q, want the Secret's environment variable", c.Sources["spring.datasource.password"])
	}

	if p := ctr.ReadinessProbe.Exec; p == nil || !slices.Equal(p.Command, facts.df.HealthCheck) {
		t.Errorf("readinessProbe %s, want exec %q (the Dockerfile's HEALTHCHECK, which asks %s)", yamlString(ctr.ReadinessProbe), facts.df.HealthCheck, facts.healthPath)
	}
	if p := ctr.LivenessProbe.HTTPGet; p == nil || p.Path != facts.loginPath || portByName[p.Port] != facts.port {
		t.Errorf("livenessProbe httpGet %s, want %s on the http port", yamlString(ctr.LivenessProbe), facts.loginPath)
	}
	if !slices.ContainsFunc(ctr.VolumeMounts, func(m k8sMount) bool { return m.MountPath == "/data/applogs" }) {
		t.Errorf("volumeMounts %+v: want /data/applogs", ctr.VolumeMounts)
	}

	var selector struct {
		MatchLabels map[string]string `yaml:"matchLabels"`
	}
	if err := dep.Spec.Selector.Decode(&selector); err != nil || len(selector.MatchLabels) == 0 {
		t.Fatalf("deployment selector: %v", err)
	}
	var svcSelector map[string]string
	if err := svc.Spec.Selector.Decode(&svcSelector); err != nil {
		t.Fatalf("service selector: %v", err)
	}
	for k, v := range svcSelector {
		if pod.Metadata.Labels[k] != v {
			t.Errorf("service selects %s=%s, which the pods do not carry", k, v)
		}
	}
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != facts.port || portByName[svc.Spec.Ports[0].TargetPort] != facts.port {
		t.Errorf("service ports %+v, want %d to the http port", svc.Spec.Ports, facts.port)
	}
}

func yamlString(v any) string {
	b, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(b))
}
