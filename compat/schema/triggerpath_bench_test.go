package schema

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// BenchmarkTriggerPath measures the database statements of one second of
// triggers (2,000 jobs) as the trigger flow runs them — the schedule round,
// the jobs' reload, the log rows, their results, their callbacks — one step
// at a time, and reports the MariaDB server's CPU per row of each step
// (server_us/row) when the server runs on this machine: the numbers behind
// issue 11's CPU-per-trigger goal. Beside them, the admin's side of each
// step: this process's CPU (admin_us/row, which includes building the
// step's input rows) and its heap allocations per row (allocs/row, exact).
func BenchmarkTriggerPath(b *testing.B) {
	dsn := os.Getenv(mysqlDSNEnv)
	if dsn == "" {
		b.Skip(mysqlDSNEnv + " not set")
	}
	s := openMySQL(b)
	ctx := context.Background()
	if _, err := s.Prepare(ctx, PrepareOptions{}); err != nil {
		b.Fatal(err)
	}
	const n = 2000
	ids := make([]int, n)
	err := s.WithTx(ctx, func(tx *Store) error {
		for i := range n {
			id, err := tx.JobSave(ctx, JobInfo{JobGroup: 1, JobDesc: fmt.Sprintf("job %d", i), ScheduleType: "FIX_RATE",
				ScheduleConf: Ptr("1"), MisfireStrategy: "DO_NOTHING", GlueType: "BEAN",
				ExecutorHandler: Ptr("demoJobHandler"), TriggerStatus: 1, TriggerNextTime: 1000})
			if err != nil {
				return err
			}
			ids[i] = id
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	server := serverPID(s)
	next := int64(1000)
	var logIDs []int64
	now := time.Now()
	steps := []struct {
		name string
		fn   func() error
	}{
		{"round", func() error {
			return s.WithScheduleLock(ctx, func(tx *Store) error {
				jobs, err := tx.JobScheduleQuery(ctx, next, 6000)
				if err != nil {
					return err
				}
				moves := make([]ScheduleMove, len(jobs))
				for i, j := range jobs {
					moves[i] = ScheduleMove{ID: j.ID, FromNext: j.TriggerNextTime, Status: 1, Last: j.TriggerNextTime, Next: j.TriggerNextTime + 1000}
				}
				next += 1000
				return tx.JobScheduleMove(ctx, moves)
			})
		}},
		{"load", func() error { _, err := s.JobTriggerLoad(ctx, ids); return err }},
		{"insert", func() error {
			rows := make([]JobLog, n)
			for i, id := range ids {
				rows[i] = JobLog{JobGroup: 1, JobID: id, TriggerTime: &now, ExecutorHandler: Ptr("demoJobHandler"), ExecutorParam: Ptr("")}
			}
			var err error
			logIDs, err = s.LogSaveMany(ctx, rows)
			return err
		}},
		{"result", func() error {
			rows := make([]JobLog, n)
			for i, id := range logIDs {
				rows[i] = JobLog{ID: id, TriggerCode: 200, ExecutorAddress: Ptr("http://127.0.0.1:9999/"),
					TriggerMsg: Ptr(strings.Repeat("任务触发类型：固定速度<br>调度机器：10.0.0.1", 6))}
			}
			return s.LogTriggerResultMany(ctx, rows)
		}},
		{"finish", func() error {
			rows := make([]JobLog, n)
			for i, id := range logIDs {
				rows[i] = JobLog{ID: id, HandleTime: &now, HandleCode: 200, HandleMsg: Ptr("")}
			}
			_, err := s.LogFinishMany(ctx, rows)
			return err
		}},
	}
	spent := make([]time.Duration, len(steps))
	server0 := make([]time.Duration, len(steps))
	admin := make([]time.Duration, len(steps))
	allocs := make([]uint64, len(steps))
	self := os.Getpid()
	var mem runtime.MemStats
	rounds := 0
	for b.Loop() {
		for i, st := range steps {
			c0 := serverCPU(server)
			a0, _ := procstat.CPUTime(self)
			runtime.ReadMemStats(&mem)
			m0 := mem.Mallocs
			t0 := time.Now()
			if err := st.fn(); err != nil {
				b.Fatalf("%s: %v", st.name, err)
			}
			spent[i] += time.Since(t0)
			runtime.ReadMemStats(&mem)
			allocs[i] += mem.Mallocs - m0
			a1, _ := procstat.CPUTime(self)
			admin[i] += a1 - a0
			server0[i] += serverCPU(server) - c0
		}
		rounds++
	}
	for i, st := range steps {
		rows := float64(rounds * n)
		b.ReportMetric(float64(spent[i].Microseconds())/rows, st.name+"_us/row")
		b.ReportMetric(float64(admin[i].Microseconds())/rows, st.name+"_admin_us/row")
		b.ReportMetric(float64(allocs[i])/rows, st.name+"_allocs/row")
		if server > 0 {
			b.ReportMetric(float64(server0[i].Microseconds())/rows, st.name+"_server_us/row")
		}
	}
}

// serverPID is the MariaDB server's process id from its pid file, or 0
// when the server is not on this machine (or the file is not readable).
func serverPID(s *Store) int {
	var file string
	if err := s.q.QueryRowContext(context.Background(), "SELECT @@pid_file").Scan(&file); err != nil {
		return 0
	}
	pid, err := procstat.PIDFile(file)
	if err != nil {
		return 0
	}
	return pid
}

// serverCPU is the server's CPU time so far (0 without a server pid).
func serverCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	d, _ := procstat.CPUTime(pid)
	return d
}
