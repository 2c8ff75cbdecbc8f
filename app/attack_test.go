package app_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

const success = `{"code":200,"msg":null,"content":null}`

// stalledPost opens a connection and sends the headers of a POST that
// announces a 100-byte body it never sends.
func stalledPost(t *testing.T, addr, path, token string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	req := "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
	if token != "" {
		req += "XXL-JOB-ACCESS-TOKEN: " + token + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	return conn
}

// Attack 1 (stalled request bodies): 50 clients announce a body and never
// send it. Those refused for their token are closed at once; those with
// the right token when server.tomcat.connection-timeout runs out. Health,
// registry and callbacks answer meanwhile.
func TestAttackStalledBodies(t *testing.T) {
	a := startAdmin(t, app.Options{}, "--server.tomcat.connection-timeout=500", "--xxl.job.accessToken=s3cret-token")
	var conns []net.Conn
	for i := range 50 {
		token := "wrong"
		if i%2 == 0 {
			token = "s3cret-token"
		}
		conns = append(conns, stalledPost(t, a.addr, "/xxl-job-admin/api/registry", token))
	}
	resp, body := get(t, a.base+"/xxl-job-admin/actuator/health")
	if resp.StatusCode != 200 || body != `{"status":"UP"}` {
		t.Fatalf("health while stalled: %d %s", resp.StatusCode, body)
	}
	reg := `{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"http://127.0.0.1:9999/"}`
	if got := post(t, a.base+"/xxl-job-admin/api/registry", "s3cret-token", reg); got != success {
		t.Fatalf("registry while stalled: %s", got)
	}
	if got := post(t, a.base+"/xxl-job-admin/api/callback", "s3cret-token", `[]`); got != success {
		t.Fatalf("callback while stalled: %s", got)
	}
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			// A guard only: the server closes each within 500 ms.
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.ReadAll(c); err != nil {
				t.Errorf("connection %d held open: %v", i, err)
			}
		})
	}
	wg.Wait()
}

// Attack 1, the shutdown: a client stalled in its request body does not
// make the stop fail; its connection is closed after the grace.
func TestAttackStalledClientShutdown(t *testing.T) {
	active := make(chan struct{}, 10)
	a := startAdmin(t, app.Options{ConnState: func(_ net.Conn, s http.ConnState) {
		if s == http.StateActive {
			active <- struct{}{}
		}
	}}, "--server.tomcat.connection-timeout=60s", "--spring.lifecycle.timeout-per-shutdown-phase=200ms", "--xxl.job.accessToken=s3cret-token")
	stalledPost(t, a.addr, "/xxl-job-admin/api/registry", "s3cret-token")
	<-active // the server is reading the stalled request
	if err := a.stop(); err != nil {
		t.Fatalf("Run returned %v, want nil", err)
	}
	if !strings.Contains(a.logs.String(), "closed connections still open after the shutdown grace") {
		t.Errorf("no shutdown warning in\n%s", a.logs.String())
	}
}

// Attack 1, the process: SIGTERM with a stalled client exits 0 (it was
// "http shutdown: context deadline exceeded", exit 1).
func TestAttackStalledClientExitCode(t *testing.T) {
	args, _ := json.Marshal([]string{"--server.port=0", "--server.address=127.0.0.1",
		"--spring.datasource.url=jdbc:sqlite:" + filepath.Join(t.TempDir(), "x.db"),
		"--xxl.job.accessToken=s3cret-token", "--spring.lifecycle.timeout-per-shutdown-phase=300ms"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "XXL_TEST_MAIN_ARGS="+string(args))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	var addr string
	for addr == "" && lines.Scan() {
		var line struct {
			Message string `json:"message"`
			Address string `json:"address"`
		}
		if json.Unmarshal(lines.Bytes(), &line) == nil && line.Message == "xxl-admin-go listening" {
			addr = line.Address
		}
	}
	if addr == "" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatal("the admin never said it was listening")
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	stalledPost(t, addr, "/xxl-job-admin/api/registry", "s3cret-token")
	stalledPost(t, addr, "/xxl-job-admin/api/callback", "wrong")
	if resp, _ := get(t, "http://"+addr+"/xxl-job-admin/actuator/health"); resp.StatusCode != 200 {
		t.Fatalf("health %d", resp.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM with a stalled client: %v, want 0", err)
	}
}

// Attack 6 (unsafe token defaults): the default and the empty token are
// warned about loudly at start and in /actuator/health; a token of one's
// own is not.
func TestAttackUnsafeTokenDefaults(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string // in the warning; "" for none
	}{
		{"default", nil, `xxl.job.accessToken is the public default \"default_token\"`},
		{"empty", []string{"--xxl.job.accessToken="}, "xxl.job.accessToken is empty"},
		{"own token", []string{"--xxl.job.accessToken=s3cret-token"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := startAdmin(t, app.Options{}, tt.args...)
			resp, body := get(t, a.base+"/xxl-job-admin/actuator/health")
			if resp.StatusCode != 200 {
				t.Fatalf("health %d", resp.StatusCode)
			}
			if tt.want == "" {
				if body != `{"status":"UP"}` || strings.Contains(a.logs.String(), "SECURITY") {
					t.Errorf("health %s, logs:\n%s", body, a.logs.String())
				}
				return
			}
			var h struct {
				Status  string `json:"status"`
				Details struct {
					Warnings []string `json:"warnings"`
				} `json:"details"`
			}
			if err := json.Unmarshal([]byte(body), &h); err != nil || h.Status != "UP" || len(h.Details.Warnings) != 1 ||
				!strings.Contains(body, tt.want) || !strings.Contains(body, "open to anyone on 127.0.0.1") && !strings.Contains(body, "accepts any client on 127.0.0.1") {
				t.Errorf("health %s (%v)", body, err)
			}
			if !strings.Contains(a.logs.String(), `"level":"warn","security":"access-token",`) ||
				!strings.Contains(a.logs.String(), `"message":"SECURITY: `+tt.want) {
				t.Errorf("no start-up warning:\n%s", a.logs.String())
			}
		})
	}
}
