// Command benchstart measures the admin binary's start-to-listening time and
// idle memory: it starts the binary repeatedly on a fresh embedded store (and
// once on an existing one), reads its log until the listening line, and
// samples VmRSS after it has idled. It prints one JSON object.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

type result struct {
	Binary       string    `json:"binary"`
	Runs         int       `json:"runs"`
	ColdMs       []float64 `json:"cold_start_ms"`        // empty database: tables and seeds created
	WarmMs       []float64 `json:"warm_start_ms"`        // existing database
	ColdMedianMs float64   `json:"cold_start_median_ms"` //
	WarmMedianMs float64   `json:"warm_start_median_ms"` //
	IdleRSSKiB   int       `json:"idle_rss_kib"`         // after IdleSeconds
	IdleSeconds  float64   `json:"idle_seconds"`         //
	GoalStartMs  float64   `json:"goal_start_ms"`        // issue 2
	GoalRSSKiB   int       `json:"goal_idle_rss_kib"`    // issue 2
}

func main() {
	bin := flag.String("bin", "bin/xxl-admin-go", "admin binary")
	runs := flag.Int("runs", 10, "starts per case")
	idle := flag.Duration("idle", 5*time.Second, "idle time before sampling RSS")
	flag.Parse()
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	res := result{Binary: abs, Runs: *runs, IdleSeconds: idle.Seconds(), GoalStartMs: 300, GoalRSSKiB: 30 * 1024}
	warmDir, err := os.MkdirTemp("", "benchstart-warm")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(warmDir)
	for i := 0; i < *runs; i++ {
		dir, err := os.MkdirTemp("", "benchstart-cold")
		if err != nil {
			fail(err)
		}
		ms, _ := start(abs, dir, 0)
		res.ColdMs = append(res.ColdMs, ms)
		os.RemoveAll(dir)
	}
	for i := 0; i < *runs; i++ {
		ms, _ := start(abs, warmDir, 0)
		res.WarmMs = append(res.WarmMs, ms)
	}
	_, rss := start(abs, warmDir, *idle)
	res.IdleRSSKiB = rss
	res.ColdMedianMs, res.WarmMedianMs = median(res.ColdMs), median(res.WarmMs)
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
}

// start runs the binary in dir, returns the time until its listening line,
// and, when idle > 0, its VmRSS after idling; then stops it.
func start(bin, dir string, idle time.Duration) (float64, int) {
	port := freePort()
	cmd := exec.Command(bin, "--server.port="+strconv.Itoa(port))
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		fail(err)
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	sc := bufio.NewScanner(stderr)
	var ms float64
	for sc.Scan() {
		if strings.Contains(sc.Text(), "listening") {
			ms = float64(time.Since(t0).Microseconds()) / 1000
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	if ms == 0 {
		_ = cmd.Process.Kill()
		fail(fmt.Errorf("binary exited before listening"))
	}
	rss := 0
	if idle > 0 {
		time.Sleep(idle)
		rss = vmRSS(cmd.Process.Pid)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait()
	return ms, rss
}

func vmRSS(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return -1
}

func freePort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchstart:", err)
	os.Exit(1)
}
