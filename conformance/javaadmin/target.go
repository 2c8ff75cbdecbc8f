package javaadmin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ContextPath is the admins' context path (the Java default).
const ContextPath = "/xxl-job-admin"

// Zone is the zone every admin runs in: TZ of the process and the
// serverTimezone its JDBC URL should carry (the reference README: set TZ to
// the JDBC zone, or the Java admin's own dates and MySQL's differ).
const Zone = "Asia/Shanghai"

// Settings are what an admin is started with; both implementations read
// the same keys.
type Settings struct {
	DatasourceURL, User, Password string
	AccessToken                   string
	Lang                          string // xxl.job.i18n; "" keeps the default (zh_CN)
	// Mail are the spring.mail.* arguments; empty means a loopback port
	// where nothing is expected to be sent (MailPort, or 25).
	Mail     []string
	MailPort int
	// Extra are further --key=value arguments.
	Extra []string
	// WorkDir holds the process's files (logback config, Tomcat scratch
	// directories); the test removes it.
	WorkDir string
	// ReadyPath is the page that answers 200 once the admin serves
	// requests; empty means the 2.4.2 login page, ContextPath + "/toLogin"
	// (3.4.2: ReadyPath342).
	ReadyPath string
}

// ReadyPath342 is the 3.4.2 admin's login page: its context path is the
// root (reference README).
const ReadyPath342 = "/auth/login"

func (s Settings) readyPath() string {
	if s.ReadyPath != "" {
		return s.ReadyPath
	}
	return ContextPath + "/toLogin"
}

// args are the command-line settings both admins read, for port.
func (s Settings) args(port int) []string {
	out := []string{
		"--server.port=" + strconv.Itoa(port),
		"--server.address=127.0.0.1",
		"--spring.datasource.url=" + s.DatasourceURL,
		"--spring.datasource.username=" + s.User,
		"--spring.datasource.password=" + s.Password,
		"--xxl.job.accessToken=" + s.AccessToken,
	}
	if s.Lang != "" {
		out = append(out, "--xxl.job.i18n="+s.Lang)
	}
	if len(s.Mail) > 0 {
		out = append(out, s.Mail...)
	} else {
		port := s.MailPort
		if port == 0 {
			port = 25
		}
		out = append(out, "--spring.mail.host=127.0.0.1", "--spring.mail.port="+strconv.Itoa(port))
	}
	return append(out, s.Extra...)
}

// Target is an admin implementation a test can start.
type Target interface {
	// Name labels reports ("java", "ours").
	Name() string
	// Command returns the process serving the admin on port.
	Command(ctx context.Context, port int, s Settings) (*exec.Cmd, error)
}

// Java is an official admin jar, the oracle: 2.4.2 (JarPath) or 3.4.2
// (JarPath342); both read the same command-line keys.
type Java struct {
	Jar string
	// DebugLoggers are logback loggers raised to DEBUG, e.g.
	// com.xxl.job.admin.core.thread.JobScheduleHelper, whose debug lines
	// name every ring push.
	DebugLoggers []string
}

// Name implements Target.
func (Java) Name() string { return "java" }

// logback logs to the console only: the jar's own configuration writes to
// /data/applogs, which need not exist or be writable.
func (j Java) logback() string {
	var b strings.Builder
	b.WriteString(`<configuration>
  <appender name="console" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
  </appender>
`)
	for _, l := range j.DebugLoggers {
		fmt.Fprintf(&b, "  <logger name=%q level=\"DEBUG\"/>\n", l)
	}
	b.WriteString(`  <root level="info"><appender-ref ref="console"/></root>
</configuration>
`)
	return b.String()
}

// Command implements Target. C1-only compilation starts Spring Boot about a
// third faster, and these runs are too short for C2 to matter. The JVM
// locale is pinned to "en": Tomcat derives Content-Language from it, and it
// was "en" in every recording. Tomcat's scratch directories go to the work
// directory.
func (j Java) Command(ctx context.Context, port int, s Settings) (*exec.Cmd, error) {
	logback := filepath.Join(s.WorkDir, "logback.xml")
	if err := os.WriteFile(logback, []byte(j.logback()), 0o644); err != nil {
		return nil, fmt.Errorf("write logback config: %w", err)
	}
	args := []string{"-XX:TieredStopAtLevel=1", "-Duser.language=en", "-Duser.country=",
		"-Dfile.encoding=UTF-8", "-Djava.io.tmpdir=" + s.WorkDir, "-jar", j.Jar}
	args = append(args, s.args(port)...)
	args = append(args, "--logging.config="+logback)
	cmd := exec.CommandContext(ctx, "java", args...)
	cmd.Dir = s.WorkDir
	return cmd, nil
}

// Ours is our admin binary.
type Ours struct {
	Bin string
	// LegacyCookie starts it with --xxl.job.console.legacy-cookie=true, so
	// it accepts (and issues) the Java cookie format.
	LegacyCookie bool
}

// Name implements Target.
func (Ours) Name() string { return "ours" }

// Command implements Target.
func (o Ours) Command(ctx context.Context, port int, s Settings) (*exec.Cmd, error) {
	args := s.args(port)
	if o.LegacyCookie {
		args = append(args, "--xxl.job.console.legacy-cookie=true")
	}
	cmd := exec.CommandContext(ctx, o.Bin, args...)
	cmd.Dir = s.WorkDir
	return cmd, nil
}
