package dropin

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const (
	// phase is how long each admin runs the jobs alone.
	phase = 8 * time.Second
	// firstRound is how long an admin's schedule loop waits after start.
	firstRound = 6 * time.Second
)

// job is one job the creating admin adds through its console, and the
// planned seconds it must fire on.
type job struct {
	javaadmin.Job
	id    int
	first int64 // planned epoch second of the first fire (trigger_next_time after start)
	step  int64 // seconds between fires
}

// generation is the Java admin release a drop-in runs with, and how the
// admins, their consoles and the executor are set up for it; the
// takeover and every check are the same.
type generation struct {
	name    string
	require func(testing.TB) string // the jar, or a [suite-off] skip
	// create is the schema the database is created as: our admin behaves
	// as the generation the database holds.
	create      schema.Generation
	contextPath string // where both admins serve (3.4.2: the root)
	readyPath   string // "" for javaadmin's 2.4.2 default
	// login opens a console session (2.4.2: /login; 3.4.2: /auth/doLogin).
	login      func(base, user, password string) (*javaadmin.Console, error)
	executorOK string // the fake executor's success body
}

var (
	gen242 = generation{name: "2.4.2", require: javaadmin.Require, create: schema.Gen2,
		contextPath: javaadmin.ContextPath, login: javaadmin.Login, executorOK: cluster.Success242}
	gen342 = generation{name: "3.4.2", require: javaadmin.Require342, create: schema.Gen3,
		readyPath: javaadmin.ReadyPath342, login: javaadmin.Login342, executorOK: cluster.Success342}
)

// TestDropIn: the Java admin 2.4.2 creates a group and jobs through its
// console and runs them; ours starts beside it on the same database, the
// Java admin stops (SIGTERM), ours fires the jobs on; and the reverse,
// ours creating through our console. Checked per job: every planned
// second from the first fire to the end fired exactly once (across the
// handover), by the creator before it and by the taker after it, and the
// log rows the two admins wrote are the same in every column but id and
// times (schema.md, scheduler.md §5–§6); the taker's log page lists the
// creator's log rows; a user created through either console logs into the
// other, and back.
func TestDropIn(t *testing.T) { dropIn(t, gen242) }

// TestDropIn342 is TestDropIn with the Java admin 3.4.2 on a 3.x database
// (its tables, created by ours as spec/schema-3.4.2.sql makes them): both
// consoles at the root context path with the 3.4.2 endpoints
// (/auth/doLogin, /jobgroup/insert, /jobinfo/insert, /user/insert), the
// executor answering as a 3.4.2 executor.
func TestDropIn342(t *testing.T) { dropIn(t, gen342) }

func dropIn(t *testing.T, g generation) {
	jar := g.require(t)
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the drop-in test needs " + storetest.EnvMySQL)
	}
	cluster.Exclusive(t)
	bin, err := cluster.BuildAdmin(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	java, ours := javaadmin.Java{Jar: jar}, javaadmin.Ours{Bin: bin}
	t.Run("java to ours", func(t *testing.T) {
		t.Parallel()
		takeover(t, g, java, ours)
	})
	t.Run("ours to java", func(t *testing.T) {
		t.Parallel()
		takeover(t, g, ours, java)
	})
}

func takeover(t *testing.T, g generation, creator, taker javaadmin.Target) {
	url, user, pass := storetest.MySQLURLZone(t, javaadmin.Zone)
	url += "&useUnicode=true&characterEncoding=UTF-8"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	db, err := cluster.OpenDBAs(ctx, url, user, pass, g.create)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	exec := cluster.StartExecutorAnswering(g.executorOK)
	t.Cleanup(exec.Close)
	logs := &outputs{dir: t.TempDir(), readyPath: g.readyPath}
	defer func() {
		if t.Failed() {
			logs.show(t)
		}
	}()

	a := logs.start(t, ctx, creator, "creator", url, user, pass)
	aURL := a.BaseURL + g.contextPath
	exec.SetAdmins([]cluster.Endpoint{{URL: aURL, Token: "creator"}})
	con, err := g.login(aURL, "admin", "123456")
	if err != nil {
		t.Fatal(err)
	}
	if err := con.SaveGroup("dropin-app", "drop-in", exec.Address()); err != nil {
		t.Fatal(err)
	}
	var group int
	if err := db.SQL.QueryRowContext(ctx, "SELECT id FROM xxl_job_group WHERE app_name = 'dropin-app'").Scan(&group); err != nil {
		t.Fatal(err)
	}
	jobs := []*job{
		{Job: javaadmin.Job{Group: group, Desc: "rate", ScheduleType: "FIX_RATE", Conf: "2", Handler: "rateHandler", Param: "p-rate",
			Route: "FIRST", Misfire: "DO_NOTHING", Block: "SERIAL_EXECUTION"}, step: 2},
		{Job: javaadmin.Job{Group: group, Desc: "cron", ScheduleType: "CRON", Conf: "*/3 * * * * ?", Handler: "cronHandler", Param: "p-cron",
			Route: "ROUND", Misfire: "FIRE_ONCE_NOW", Block: "DISCARD_LATER", Timeout: 5, FailRetry: 1}, step: 3},
	}
	for _, j := range jobs {
		if j.id, err = con.AddJob(j.Job); err != nil {
			t.Fatal(err)
		}
		exec.SetMode(j.id, cluster.CallbackSuccess)
	}
	// A user the creator writes, to log into the taker.
	if err := con.AddUser("by-creator", "pwd-creator", 0, fmt.Sprint(group)); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if err := con.Start(j.id); err != nil {
			t.Fatal(err)
		}
		var next int64
		if err := db.SQL.QueryRowContext(ctx, "SELECT trigger_next_time FROM xxl_job_info WHERE id = ?", j.id).Scan(&next); err != nil {
			t.Fatal(err)
		}
		j.first = next / 1000
	}
	sleepUntil(ctx, time.Unix(jobs[0].first, 0).Add(phase))

	// The rolling replacement: the taker starts beside the creator and
	// runs its first schedule round (a whole second ≥ 4 s after start,
	// scheduler.md §3.1), then the creator stops. Stopping it earlier leaves
	// the jobs due meanwhile to a late round, and a FIX_RATE job then
	// restarts its grid from that moment (§3.2 case B): seen in this test.
	b := logs.start(t, ctx, taker, "taker", url, user, pass)
	takerStarted := time.Now()
	bURL := b.BaseURL + g.contextPath
	exec.SetAdmins([]cluster.Endpoint{{URL: aURL, Token: "creator"}, {URL: bURL, Token: "taker"}})
	shareUsers(t, g, aURL, bURL, creator.Name(), taker.Name())
	sleepUntil(ctx, takerStarted.Add(firstRound))
	handover := time.Now()
	if err := a.Stop(); err != nil {
		t.Errorf("%s stop: %v", creator.Name(), err)
	}
	exec.SetAdmins([]cluster.Endpoint{{URL: bURL, Token: "taker"}})
	sleepUntil(ctx, time.Now().Add(phase))
	last := time.Now().Truncate(time.Second).Add(-time.Second)
	sleepUntil(ctx, time.Now().Add(time.Second)) // the last callbacks land

	fires := exec.Fires()
	byLog := map[int64]string{}
	for _, f := range fires {
		byLog[f.LogID] = f.Admin
	}
	// The taker's log page lists the rows the creator wrote.
	takerCon, err := g.login(bURL, "admin", "123456")
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		listed, err := takerCon.LogIDs(group, j.id)
		if err != nil {
			t.Fatal(err)
		}
		var missing []int64
		byCreator := 0
		for _, f := range fires {
			if f.JobID == j.id && f.Admin == "creator" {
				byCreator++
				if !slices.Contains(listed, f.LogID) {
					missing = append(missing, f.LogID)
				}
			}
		}
		if byCreator == 0 || len(missing) > 0 {
			t.Errorf("job %s: %s's log page lists %d rows; of the %d %s wrote, it misses %v", j.Desc, taker.Name(),
				len(listed), byCreator, creator.Name(), missing)
		}
	}
	if err := b.Stop(); err != nil {
		t.Errorf("%s stop: %v", taker.Name(), err)
	}

	for _, j := range jobs {
		checkGrid(t, j, fires, last)
	}
	rows, err := logRows(ctx, db.SQL, group)
	if err != nil {
		t.Fatal(err)
	}
	compareRows(t, rows, byLog, creator.Name(), taker.Name())
	t.Logf("%s created %d jobs; %s took over at %s", creator.Name(), len(jobs), taker.Name(), handover.UTC().Format("15:04:05.000"))
}

// shareUsers: the user the creator wrote logs into the taker's console; a
// user the taker writes logs into the creator's, and back into the
// taker's (3.4.2 keeps one session per user in xxl_job_user.token: each
// login replaces the other's).
func shareUsers(t *testing.T, g generation, creatorURL, takerURL, creator, taker string) {
	t.Helper()
	if _, err := g.login(takerURL, "by-creator", "pwd-creator"); err != nil {
		t.Errorf("the user %s wrote does not log into %s: %v", creator, taker, err)
	}
	con, err := g.login(takerURL, "admin", "123456")
	if err != nil {
		t.Fatal(err)
	}
	if err := con.AddUser("by-taker", "pwd-taker", 0, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := g.login(creatorURL, "by-taker", "pwd-taker"); err != nil {
		t.Errorf("the user %s wrote does not log into %s: %v", taker, creator, err)
	}
	if _, err := g.login(takerURL, "by-taker", "pwd-taker"); err != nil {
		t.Errorf("the user %s wrote does not log back into %s after %s: %v", taker, taker, creator, err)
	}
	if _, err := g.login(creatorURL, "by-taker", "wrong"); err == nil {
		t.Errorf("%s accepted a wrong password", creator)
	}
}

// checkGrid: every planned second of j from its first fire to last fired
// exactly once, and both admins fired some. A fire counts for the latest
// planned second at or before its trigger second: a ring tick that came
// late (a JVM starting beside the admin starves it) fires the second
// before with the look-back slot (scheduler.md §3.3). The job's period is
// longer than any such lateness, so no fire can be taken for another.
func checkGrid(t *testing.T, j *job, fires []cluster.Fire, last time.Time) {
	t.Helper()
	per := map[int64][]string{}
	var maxLate int64
	for _, f := range fires {
		if f.JobID != j.id || f.Second() < j.first {
			continue
		}
		planned := f.Second() - (f.Second()-j.first)%j.step
		per[planned] = append(per[planned], f.Admin)
		maxLate = max(maxLate, f.Second()-planned)
	}
	var seconds []string
	byAdmin := map[string]int{}
	for s := j.first; s <= last.Unix(); s += j.step {
		got := per[s]
		if len(got) != 1 {
			t.Errorf("job %s: %d fires for planned second %s; want one", j.Desc, len(got), time.Unix(s, 0).UTC().Format("15:04:05"))
		}
		for _, a := range got {
			byAdmin[a]++
			seconds = append(seconds, fmt.Sprintf("%s:%s", time.Unix(s, 0).UTC().Format("05"), a[:1]))
		}
	}
	t.Logf("job %s (every %d s from %s, at most %d s late): %s", j.Desc, j.step, time.Unix(j.first, 0).UTC().Format("15:04:05"),
		maxLate, strings.Join(seconds, " "))
	if maxLate >= j.step {
		t.Errorf("job %s: a fire came %d s late, a whole period", j.Desc, maxLate)
	}
	if byAdmin["creator"] == 0 || byAdmin["taker"] == 0 {
		t.Errorf("job %s fired %v times per admin; want both", j.Desc, byAdmin)
	}
}

// logRow is a log row without its id and times.
type logRow struct {
	id     int64
	jobID  int
	fields string
}

func logRows(ctx context.Context, db *sql.DB, group int) ([]logRow, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, job_id, CONCAT_WS('|', job_group, COALESCE(executor_address, 'NULL'),"+
		" COALESCE(executor_handler, 'NULL'), COALESCE(executor_param, 'NULL'), COALESCE(executor_sharding_param, 'NULL'),"+
		" executor_fail_retry_count, trigger_code, COALESCE(trigger_msg, 'NULL'), handle_code, COALESCE(handle_msg, 'NULL'),"+
		" alarm_status) FROM xxl_job_log WHERE job_group = ? AND handle_code <> 0 ORDER BY id", group)
	if err != nil {
		return nil, fmt.Errorf("read log rows: %w", err)
	}
	defer rows.Close()
	var out []logRow
	for rows.Next() {
		var r logRow
		if err := rows.Scan(&r.id, &r.jobID, &r.fields); err != nil {
			return nil, fmt.Errorf("read log rows: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// compareRows: per job, the rows each admin wrote are all alike, and alike
// between the admins.
func compareRows(t *testing.T, rows []logRow, byLog map[int64]string, creator, taker string) {
	t.Helper()
	seen := map[int]map[string]map[string]int{} // job → admin → fields → rows
	for _, r := range rows {
		who := byLog[r.id]
		if seen[r.jobID] == nil {
			seen[r.jobID] = map[string]map[string]int{}
		}
		if seen[r.jobID][who] == nil {
			seen[r.jobID][who] = map[string]int{}
		}
		seen[r.jobID][who][r.fields]++
	}
	var ids []int
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		byAdmin := seen[id]
		c, k := keys(byAdmin["creator"]), keys(byAdmin["taker"])
		if len(c) != 1 || len(k) != 1 || c[0] != k[0] {
			t.Errorf("job %d log rows differ:\n  %s (creator): %q\n  %s (taker):   %q", id, creator, c, taker, k)
			continue
		}
		t.Logf("job %d: %d rows by %s and %d by %s, all: %s", id, byAdmin["creator"][c[0]], creator,
			byAdmin["taker"][k[0]], taker, c[0])
	}
}

func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// outputs keeps each admin's output in a file, shown when the test fails.
type outputs struct {
	dir       string
	readyPath string // javaadmin.Settings.ReadyPath
	mu        sync.Mutex
	files     []string
}

func (o *outputs) start(t *testing.T, ctx context.Context, target javaadmin.Target, token, url, user, pass string) *javaadmin.Admin {
	t.Helper()
	work := filepath.Join(o.dir, token)
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(work, "admin.log")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	o.mu.Lock()
	o.files = append(o.files, name)
	o.mu.Unlock()
	a, err := javaadmin.Start(ctx, target, javaadmin.Settings{DatasourceURL: url, User: user, Password: pass,
		AccessToken: token, WorkDir: work, ReadyPath: o.readyPath}, f, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	return a
}

func (o *outputs) show(t *testing.T) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, name := range o.files {
		b, _ := os.ReadFile(name)
		lines := strings.Split(string(b), "\n")
		if len(lines) > 30 {
			lines = lines[len(lines)-30:]
		}
		t.Logf("%s:\n%s", name, strings.Join(lines, "\n"))
	}
}

func sleepUntil(ctx context.Context, at time.Time) {
	tm := time.NewTimer(time.Until(at))
	defer tm.Stop()
	select {
	case <-tm.C:
	case <-ctx.Done():
	}
}
