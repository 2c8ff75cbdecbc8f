package schema

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// modesOf lists the insert modes a backend can be forced into: MySQL and
// MariaDB run all three (MariaDB's default lock mode 1 makes the
// consecutive path valid there too), PostgreSQL and SQLite only their own.
func modesOf(s *Store) []insertMode {
	switch s.Backend() {
	case MySQL:
		return []insertMode{insertReturning, insertConsecutive, insertSingle}
	case Postgres:
		return []insertMode{insertReturning}
	}
	return []insertMode{insertSingle}
}

// forceMode makes s use mode from now on (the probe is skipped).
func forceMode(s *Store, mode insertMode) {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	s.caps.mode, s.caps.increment = mode, 1
}

func TestChooseInsertMode(t *testing.T) {
	for _, c := range []struct {
		version       string
		lockMode, inc int64
		want          insertMode
		why           string
	}{
		{"10.11.19-MariaDB-0+deb12u1", 1, 1, insertReturning, "MariaDB 10.5+ returns ids"},
		{"5.5.5-10.6.12-MariaDB", 2, 3, insertReturning, "Galera: interleaved, increment 3, RETURNING still exact"},
		{"10.4.30-MariaDB", 1, 1, insertConsecutive, "MariaDB 10.4 has no INSERT RETURNING"},
		{"10.4.30-MariaDB", 2, 1, insertSingle, "interleaved without RETURNING"},
		{"8.0.36", 2, 1, insertSingle, "MySQL 8 default: interleaved"},
		{"8.0.36", 1, 1, insertConsecutive, "MySQL 8 set to consecutive"},
		{"5.7.44-log", 1, 2, insertConsecutive, "MySQL 5.7 default, increment 2"},
		{"5.7.44", 0, 1, insertConsecutive, "traditional"},
	} {
		if got := chooseInsertMode(c.version, c.lockMode, c.inc); got != c.want {
			t.Errorf("%s (lock mode %d, increment %d) = %d, want %d: %s", c.version, c.lockMode, c.inc, got, c.want, c.why)
		}
	}
}

// TestLogSaveMany: every insert mode writes the rows as LogSave would, with
// the executor columns known before the /run (NULL where nil), in order,
// and hands back each row's own id; job ids repeated in one batch keep
// their order (schema.md §4.3 save).
func TestLogSaveMany(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, mode := range modesOf(s) {
			forceMode(s, mode)
			trig := at(s, 2024, 6, 1, 8, 0, int(mode))
			var rows []JobLog
			for i := range 1203 { // three statements of batchRows
				l := JobLog{JobGroup: 1 + i%3, JobID: 100 + i%7, TriggerTime: &trig, ExecutorFailRetryCount: i % 3}
				if i%2 == 0 {
					l.ExecutorHandler, l.ExecutorParam = Ptr("demoJobHandler"), Ptr(fmt.Sprintf("p %d 😀 'q' \\", i))
					l.ExecutorShardingParam = Ptr(fmt.Sprintf("%d/2", i%2))
				}
				rows = append(rows, l)
			}
			ids, err := s.LogSaveMany(ctx, rows)
			mustNoErr(t, err)
			if len(ids) != len(rows) {
				t.Fatalf("mode %d: %d ids for %d rows", mode, len(ids), len(rows))
			}
			got, err := s.LogLoadMany(ctx, ids)
			mustNoErr(t, err)
			for i, id := range ids {
				if i > 0 && id <= ids[i-1] {
					t.Fatalf("mode %d: ids not ascending at %d: %d after %d", mode, i, id, ids[i-1])
				}
				want := rows[i]
				want.ID = id
				assertRow(t, got[id], want)
			}
		}
	})
}

// TestLogSaveManyConcurrent: batches written at the same time by many
// callers never share or lose an id (the consecutive path relies on
// InnoDB's guarantee for one multi-row INSERT).
func TestLogSaveManyConcurrent(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, mode := range modesOf(s) {
			forceMode(s, mode)
			trig := at(s, 2024, 6, 2, 8, 0, 0)
			const callers, per = 8, 300
			var wg sync.WaitGroup
			results := make([][]int64, callers)
			errs := make([]error, callers)
			for c := range callers {
				wg.Go(func() {
					rows := make([]JobLog, per)
					for i := range rows {
						rows[i] = JobLog{JobGroup: 1, JobID: 1000*(int(mode)+1) + c, TriggerTime: &trig}
					}
					results[c], errs[c] = s.LogSaveMany(ctx, rows)
				})
			}
			wg.Wait()
			seen := map[int64]bool{}
			for c := range callers {
				mustNoErr(t, errs[c])
				got, err := s.LogLoadMany(ctx, results[c])
				mustNoErr(t, err)
				for _, id := range results[c] {
					if seen[id] {
						t.Fatalf("mode %d: id %d handed out twice", mode, id)
					}
					seen[id] = true
					if got[id].JobID != 1000*(int(mode)+1)+c {
						t.Fatalf("mode %d: caller %d got id %d of job %d", mode, c, id, got[id].JobID)
					}
				}
			}
		}
	})
}

// TestLogUpdateTriggerInfoMany: the batched update leaves every row as one
// updateTriggerInfo each would (NULLs, utf8mb4, a repeated id taking its
// last values), leaves other rows alone and skips ids that do not exist.
func TestLogUpdateTriggerInfoMany(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		trig := at(s, 2024, 6, 3, 8, 0, 0)
		later := at(s, 2024, 6, 3, 8, 0, 1)
		var rows []JobLog
		for i := range 1100 {
			rows = append(rows, JobLog{JobGroup: 2, JobID: 7 + i%2, TriggerTime: &trig})
		}
		ids, err := s.LogSaveMany(ctx, rows)
		mustNoErr(t, err)
		var updates []JobLog
		want := map[int64]JobLog{}
		for i, id := range ids[:1050] { // the last 50 stay untouched
			u := JobLog{ID: id, JobGroup: 2, JobID: rows[i].JobID, TriggerTime: &later, TriggerCode: 200 + i%2*300,
				TriggerMsg: Ptr(fmt.Sprintf("任务触发类型：Cron触发<br>%d 😀 'quoted' \\ back", i)), ExecutorFailRetryCount: i % 4}
			if i%3 == 0 {
				u.ExecutorAddress, u.ExecutorHandler, u.ExecutorParam = Ptr("http://10.0.0.1:9999/"), Ptr("h"), Ptr("")
				u.ExecutorShardingParam = Ptr(fmt.Sprintf("%d/3", i%3))
			}
			updates = append(updates, u)
			want[id] = u
		}
		// Out of id order, one id twice (the later values win) and one id
		// that does not exist.
		updates[0], updates[len(updates)-1] = updates[len(updates)-1], updates[0]
		again := updates[5]
		again.TriggerCode, again.TriggerMsg = 500, Ptr("second")
		updates = append(updates, again, JobLog{ID: ids[len(ids)-1] + 1000, TriggerTime: &later, TriggerCode: 200})
		want[again.ID] = again
		mustNoErr(t, s.LogUpdateTriggerInfoMany(ctx, updates))
		got, err := s.LogLoadMany(ctx, ids)
		mustNoErr(t, err)
		for i, id := range ids {
			w, ok := want[id]
			if !ok {
				w = rows[i]
				w.ID = id
			}
			assertRow(t, got[id], w)
		}
		if _, err := s.LogLoad(ctx, ids[len(ids)-1]+1000); err == nil {
			t.Error("the update of a missing id created a row")
		}
	})
}

// TestJobTriggerLoad: the jobs of many ids in one call, each with the
// columns a trigger reads as JobLoad reads them; repeated and missing ids
// are fine.
func TestJobTriggerLoad(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		glue := at(s, 2024, 5, 6, 7, 8, 9)
		var ids []int
		for i := range 1500 {
			id, err := s.JobSave(ctx, JobInfo{JobGroup: 1 + i%2, JobDesc: fmt.Sprint("job ", i), ScheduleType: "NONE",
				MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", ExecutorParam: Ptr(fmt.Sprint(i)), ExecutorHandler: Ptr("h"),
				ExecutorRouteStrategy: Ptr("ROUND"), ExecutorBlockStrategy: Ptr("COVER_EARLY"), ExecutorTimeout: i % 7,
				ExecutorFailRetryCount: i % 3, GlueSource: Ptr("src"), GlueUpdatetime: &glue})
			mustNoErr(t, err)
			ids = append(ids, id)
		}
		got, err := s.JobTriggerLoad(ctx, append(ids, ids[0], ids[len(ids)-1]+100))
		mustNoErr(t, err)
		if len(got) != len(ids) {
			t.Fatalf("%d jobs for %d ids", len(got), len(ids))
		}
		for _, id := range []int{ids[0], ids[999], ids[1000], ids[1499]} {
			one, err := s.JobLoad(ctx, id)
			mustNoErr(t, err)
			if derefJob(one) != derefJob(got[id]) {
				t.Errorf("job %d: JobTriggerLoad %s, JobLoad %s", id, derefJob(got[id]), derefJob(one))
			}
		}
	})
}

// derefJob prints the columns a trigger reads.
func derefJob(j JobInfo) string {
	p := func(s *string) string {
		if s == nil {
			return "<nil>"
		}
		return *s
	}
	return fmt.Sprintf("%d %d %s %s %s %s %d %d %s %s %v", j.ID, j.JobGroup, p(j.ExecutorRouteStrategy), p(j.ExecutorHandler),
		p(j.ExecutorParam), p(j.ExecutorBlockStrategy), j.ExecutorTimeout, j.ExecutorFailRetryCount, j.GlueType, p(j.GlueSource),
		j.GlueUpdatetime)
}

// TestLogTriggerResultMany: a row saved by LogSaveMany with its executor
// columns and then given its result (code, message, address) ends as the
// same row given the whole updateTriggerInfo (schema.md §4.3), in batches
// and alone.
func TestLogTriggerResultMany(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		trig := at(s, 2024, 6, 4, 8, 0, 0)
		for _, n := range []int{1, 250} {
			var saved, whole []JobLog
			for i := range n {
				l := JobLog{JobGroup: 3, JobID: 20 + i%4, TriggerTime: &trig, ExecutorFailRetryCount: i % 2,
					ExecutorHandler: Ptr("h"), ExecutorParam: Ptr(fmt.Sprint(i))}
				if i%5 == 0 {
					l.ExecutorShardingParam = Ptr("0/5")
				}
				saved = append(saved, l)
			}
			a, err := s.LogSaveMany(ctx, saved)
			mustNoErr(t, err)
			b, err := s.LogSaveMany(ctx, saved)
			mustNoErr(t, err)
			var results []JobLog
			for i, l := range saved {
				r := l
				r.TriggerCode, r.TriggerMsg = 200+i%2*300, Ptr(fmt.Sprintf("触发调度 %d 😀", i))
				if i%3 != 0 {
					r.ExecutorAddress = Ptr("http://10.0.0.1:9999/")
				}
				r.ID = a[i]
				results = append(results, r)
				w := r
				w.ID = b[i]
				whole = append(whole, w)
			}
			mustNoErr(t, s.LogTriggerResultMany(ctx, results))
			mustNoErr(t, s.LogUpdateTriggerInfoMany(ctx, whole))
			got, err := s.LogLoadMany(ctx, append(a, b...))
			mustNoErr(t, err)
			for i := range saved {
				want := got[b[i]]
				want.ID = a[i]
				assertRow(t, got[a[i]], want)
				assertRow(t, got[a[i]], results[i])
			}
		}
	})
}

// TestLogBatchesOfDisjointIDs: while one transaction holds the logs it is
// finishing, another finishes and re-writes other logs of the same small
// table without waiting. MariaDB scanned the whole primary key for the
// batched UPDATE of 10 ids out of 40 rows, locking every row it passed, so
// two callback POSTs deadlocked (error 1213, answered 500).
func TestLogBatchesOfDisjointIDs(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if s.Backend() == SQLite {
			t.Skip("one writer: no row locks")
		}
		ctx := context.Background()
		trig := at(s, 2024, 6, 5, 8, 0, 0)
		rows := make([]JobLog, 40)
		for i := range rows {
			rows[i] = JobLog{JobGroup: 1, JobID: 1 + i, TriggerTime: &trig}
		}
		ids, err := s.LogSaveMany(ctx, rows)
		mustNoErr(t, err)
		finish := func(ids []int64) []JobLog {
			out := make([]JobLog, len(ids))
			for i, id := range ids {
				out[i] = JobLog{ID: id, HandleTime: &trig, HandleCode: 200, HandleMsg: Ptr("ok")}
			}
			return out
		}
		held, release := make(chan struct{}), make(chan struct{})
		first := make(chan error, 1)
		go func() {
			first <- s.WithTx(ctx, func(tx *Store) error {
				if _, err := tx.LogLoadManyForUpdate(ctx, ids[:10]); err != nil {
					return err
				}
				if _, err := tx.LogFinishMany(ctx, finish(ids[:10])); err != nil {
					return err
				}
				close(held)
				<-release
				return nil
			})
		}()
		select {
		case <-held:
		case err := <-first:
			t.Fatalf("first transaction: %v", err)
		}
		// A lock wait here would last the server's lock timeout: 5 s is
		// far beyond the few milliseconds these statements take.
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = s.WithTx(wctx, func(tx *Store) error {
			if _, err := tx.LogLoadManyForUpdate(wctx, ids[20:30]); err != nil {
				return err
			}
			if _, err := tx.LogFinishMany(wctx, finish(ids[20:30])); err != nil {
				return err
			}
			return tx.LogTriggerResultMany(wctx, []JobLog{{ID: ids[30], TriggerCode: 200}, {ID: ids[31], TriggerCode: 500}})
		})
		cancel()
		close(release)
		if err != nil {
			t.Errorf("second transaction waited for the first one's rows: %v", err)
		}
		mustNoErr(t, <-first)
	})
}
