package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// healthUsage is printed for `xxl-admin-go health --help` and usage errors.
const healthUsage = `usage: xxl-admin-go health [--url URL] [--timeout DURATION] [--key=value ...]
  Exits 0 when the admin answers URL with a 2xx status, 1 otherwise (the exit
  codes Docker's HEALTHCHECK and Kubernetes exec probes expect). Without --url
  it asks this instance's <context-path>/actuator/health on 127.0.0.1, with
  server.port and the context path read like the admin reads them (arguments,
  PARAMS, JAVA_OPTS, environment, application.properties), so the probe
  follows the configuration of the container it runs in. Without a context
  path it asks /xxl-job-admin and then / (where an admin on a 3.x database
  serves).`

// runHealth is the `health` subcommand: a probe for images without a shell
// (no curl or wget in a scratch image). args are the words after "health";
// env turns the remaining --key=value words into the admin's configuration.
func runHealth(args []string, env func(args []string) config.Env, stdout, stderr io.Writer) int {
	target, timeout, rest, err := parseHealthArgs(args)
	if err != nil {
		if errors.Is(err, errHelp) {
			_, _ = fmt.Fprintln(stdout, healthUsage)
			return 0
		}
		_, _ = fmt.Fprintf(stderr, "health: %v\n%s\n", err, healthUsage)
		return 1
	}
	var also string // where a 3.x admin serves when this one's context path is the 2.x default
	if target == "" {
		cfg, err := config.Load(env(rest))
		if err != nil {
			_, _ = fmt.Fprintf(stderr, "health: configuration: %v\n", err)
			return 1
		}
		target = healthURL(cfg)
		if cfg3, err := cfg.ForGeneration(3); err == nil && cfg3.ContextPath != cfg.ContextPath {
			also = healthURL(cfg3)
		}
	} else if len(rest) > 0 {
		_, _ = fmt.Fprintf(stderr, "health: %q given with --url; configuration keys only choose the default URL\n", rest[0])
		return 1
	}
	status, body, err := probe(target, timeout)
	if err == nil && status == http.StatusNotFound && also != "" {
		// No context path was given, and the database decides it (a 3.x
		// database is served at /): ask there too.
		target = also
		status, body, err = probe(target, timeout)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "DOWN %s: %v\n", target, err)
		return 1
	}
	if status < 200 || status > 299 {
		_, _ = fmt.Fprintf(stderr, "DOWN %s: HTTP %d %s\n", target, status, body)
		return 1
	}
	_, _ = fmt.Fprintf(stdout, "UP %s: HTTP %d %s\n", target, status, body)
	return 0
}

var errHelp = errors.New("help requested")

// parseHealthArgs takes --url and --timeout (as `--x v` or `--x=v`) and
// leaves every other word for the configuration.
func parseHealthArgs(args []string) (target string, timeout time.Duration, rest []string, err error) {
	timeout = 3 * time.Second
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		switch name {
		case "-h", "--help", "-help":
			return "", 0, nil, errHelp
		case "--url", "-url", "--timeout", "-timeout":
			if !hasValue {
				if i+1 >= len(args) {
					return "", 0, nil, fmt.Errorf("%s needs a value", name)
				}
				i++
				value = args[i]
			}
			if strings.HasSuffix(name, "url") {
				target = value
				continue
			}
			d, perr := time.ParseDuration(value)
			if perr != nil || d <= 0 {
				return "", 0, nil, fmt.Errorf("--timeout %q is not a positive duration like 3s", value)
			}
			timeout = d
		default:
			rest = append(rest, a)
		}
	}
	return target, timeout, rest, nil
}

// healthURL is where a probe inside the container finds this admin: the
// loopback address unless server.address binds one interface only.
func healthURL(cfg *config.Config) string {
	host := cfg.ServerAddress
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(cfg.ServerPort)) + cfg.ContextPath + "/actuator/health"
}

// probe sends one GET and returns the status and the start of the body.
func probe(target string, timeout time.Duration) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, "", fmt.Errorf("bad --url: %w", err)
	}
	// No proxy from the environment: the probe asks this machine.
	transport := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	defer transport.CloseIdleConnections()
	resp, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the caller already names the URL
		}
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	return resp.StatusCode, strings.Join(strings.Fields(string(b)), " "), nil
}
