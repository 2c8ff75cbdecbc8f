package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// shape is one console request a person makes.
type shape struct {
	name string
	path string     // under the context path
	form url.Values // nil: GET
}

// shapes are the table's requests (and the dashboard and the job
// list) in each generation's parameters.
func shapes(ds dataset, gen3 bool) []shape {
	day := ds.end.Add(-24 * time.Hour).Truncate(24 * time.Hour)
	window := day.Format(time.DateTime) + " - " + day.Add(24*time.Hour-time.Second).Format(time.DateTime)
	week := day.Add(-6 * 24 * time.Hour)
	weekWindow := week.Format(time.DateTime) + " - " + week.Add(24*time.Hour-time.Second).Format(time.DateTime)
	logs := func(name string, start, group, job, status int, filter string) shape {
		f := url.Values{"jobGroup": {strconv.Itoa(group)}, "jobId": {strconv.Itoa(job)},
			"logStatus": {strconv.Itoa(status)}, "filterTime": {filter}}
		if gen3 {
			f.Set("offset", strconv.Itoa(start))
			f.Set("pagesize", "10")
		} else {
			f.Set("start", strconv.Itoa(start))
			f.Set("length", "10")
		}
		return shape{name: name, path: "/joblog/pageList", form: f}
	}
	jobList := url.Values{"jobGroup": {strconv.Itoa(ds.firstGroup)}, "triggerStatus": {"-1"}, "jobDesc": {""},
		"executorHandler": {""}, "author": {""}}
	if gen3 {
		jobList.Set("offset", "0")
		jobList.Set("pagesize", "10")
	} else {
		jobList.Set("start", "0")
		jobList.Set("length", "10")
	}
	chart := url.Values{"startDate": {ds.end.Add(-7 * 24 * time.Hour).Format(time.DateTime)}, "endDate": {ds.end.Format(time.DateTime)}}
	dash := "/"
	if gen3 {
		dash = "/dashboard"
	}
	return []shape{
		logs("log list, all groups, first page", 0, 0, 0, -1, ""),
		logs("log list, one group", 0, ds.firstGroup, 0, -1, ""),
		logs("log list, one job", 0, ds.firstGroup, ds.firstJob, -1, ""),
		logs("log list, failed only", 0, 0, 0, 2, ""),
		logs("log list, page 5,000", 49_990, 0, 0, -1, ""),
		logs("log list, a one-day window", 0, 0, 0, -1, window),
		logs("log list, a one-day window a week back", 0, 0, 0, -1, weekWindow),
		logs(fmt.Sprintf("log list, page %d (offset rows/2)", ds.rows/20), ds.rows/2, 0, 0, -1, ""),
		{name: "dashboard page", path: dash},
		{name: "dashboard chart (7 days)", path: "/chartInfo", form: chart},
		{name: "job list, one group", path: "/jobinfo/pageList", form: jobList},
	}
}

// result is one shape's timings on one admin.
type result struct {
	shape  string
	median time.Duration
	all    []time.Duration
	note   string // an error answer, a total
}

// measureAdmin starts c on ds, logs in and times every shape.
func measureAdmin(ctx context.Context, srv server, ds dataset, gen schema.Generation, c candidate, runs int, work string) ([]result, error) {
	gen3 := gen == schema.Gen3
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	ctxPath := "/xxl-job-admin"
	if gen3 {
		ctxPath = ""
	}
	args := []string{"--server.port=" + strconv.Itoa(port), "--server.address=127.0.0.1",
		"--spring.datasource.url=" + srv.jdbc(ds.name), "--spring.datasource.username=" + srv.user,
		"--spring.datasource.password=" + srv.pass,
		// Retention off (both admins delete logs older than 30 days by
		// default): a data set of more than -days 30 would lose its head
		// while it is measured, and the deletes would be timed with it.
		"--xxl.job.logretentiondays=-1"}
	var cmd *exec.Cmd
	if c.java {
		cmd = exec.Command("java", append([]string{"-Djava.io.tmpdir=" + work, "-jar", c.path}, args...)...)
	} else {
		cmd = exec.Command(c.path, args...)
	}
	logf, err := os.Create(filepath.Join(work, strings.ReplaceAll(c.label, " ", "_")+".log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd.Dir, cmd.Stdout, cmd.Stderr = work, logf, logf
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(port) + ctxPath
	login := "/toLogin"
	if gen3 {
		login = "/auth/login"
	}
	if err := waitReady(ctx, base+login, done); err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 3 * time.Minute}
	doLogin := "/login"
	if gen3 {
		doLogin = "/auth/doLogin"
	}
	if _, _, err := ask(ctx, client, base+doLogin, url.Values{"userName": {"admin"}, "password": {"123456"}}); err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	fmt.Fprintf(os.Stderr, "benchgrowth: %s on %s\n", c.label, ds.name)
	var out []result
	for _, s := range shapes(ds, gen3) {
		r := result{shape: s.name}
		for i := 0; i <= runs; i++ {
			d, body, err := ask(ctx, client, base+s.path, s.form)
			if err != nil {
				r.note = err.Error()
				break
			}
			if i == 0 {
				r.note = summary(body)
				continue // the warm-up
			}
			r.all = append(r.all, d)
		}
		if len(r.all) > 0 {
			sorted := append([]time.Duration(nil), r.all...)
			sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
			r.median = sorted[len(sorted)/2]
		}
		fmt.Fprintf(os.Stderr, "  %-40s %10s  %s\n", s.name, r.median.Round(time.Millisecond), r.note)
		out = append(out, r)
	}
	return out, nil
}

// ask posts form (GET when nil) and times the whole answer.
func ask(ctx context.Context, c *http.Client, u string, form url.Values) (time.Duration, string, error) {
	var req *http.Request
	if form == nil {
		req, _ = http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	} else {
		req, _ = http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	began := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(began)
	if err != nil {
		return 0, "", err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, "", fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return d, string(body), nil
}

// summary is what an answer says of its total (or its error).
func summary(body string) string {
	for _, k := range []string{`"recordsTotal":`, `"total":`} {
		if i := strings.Index(body, k); i >= 0 {
			rest := body[i+len(k):]
			end := strings.IndexAny(rest, ",}")
			s := "total " + rest[:max(end, 0)]
			if strings.Contains(body, `"countExact":false`) {
				s += " (lower bound)"
			}
			return s
		}
	}
	if strings.Contains(body, `"code":500`) {
		return "error: " + body[:min(len(body), 160)]
	}
	return ""
}

func waitReady(ctx context.Context, page string, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			return errors.New("admin exited before it was ready")
		case <-ctx.Done():
			return errors.New("admin not ready within 3 minutes")
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// writeTable appends one data set's table: a column per admin, and the
// ratio of the last to the first.
func writeTable(w io.Writer, sc string, ds dataset, cands []candidate, res map[string][]result) {
	fmt.Fprintf(w, "\n### %s schema, %d log rows\n\n| request |", sc, ds.rows)
	for _, c := range cands {
		fmt.Fprintf(w, " %s |", c.label)
	}
	ratio := len(cands) > 1
	if ratio {
		fmt.Fprintf(w, " %s / %s |", cands[len(cands)-1].label, cands[0].label)
	}
	fmt.Fprint(w, "\n|---|")
	for range cands {
		fmt.Fprint(w, "---|")
	}
	if ratio {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for i, r := range res[cands[0].label] {
		fmt.Fprintf(w, "| %s |", r.shape)
		for _, c := range cands {
			x := res[c.label][i]
			cell := fmtDur(x.median)
			if x.median == 0 {
				cell = "—"
			}
			if strings.HasPrefix(x.note, "error") || strings.Contains(x.note, "lower bound") || x.median == 0 {
				cell += " (" + strings.TrimSpace(x.note[:min(len(x.note), 60)]) + ")"
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		if !ratio {
			fmt.Fprintln(w)
			continue
		}
		first, last := r.median, res[cands[len(cands)-1].label][i].median
		cell := "—"
		if first > 0 && last > 0 {
			cell = fmt.Sprintf("%.2f", float64(last)/float64(first))
		}
		fmt.Fprintf(w, " %s |\n", cell)
	}
}

func fmtDur(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
