package schema

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"
)

func sortedIDs(xs []int64) []int64 {
	if xs == nil {
		return []int64{}
	}
	return xs
}

// TestLogCRUD covers save/updateTriggerInfo/updateHandleInfo/load/delete of
// schema.md §4.3, with NULLs kept and utf8mb4 messages.
func TestLogCRUD(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		trig := at(s, 2024, 6, 1, 8, 0, 0)
		id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 7, TriggerTime: &trig})
		mustNoErr(t, err)
		want := JobLog{ID: id, JobGroup: 1, JobID: 7, TriggerTime: &trig}
		got, err := s.LogLoad(ctx, id)
		mustNoErr(t, err)
		assertRow(t, got, want)

		// A NULL trigger_time stays NULL.
		id2, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 7})
		mustNoErr(t, err)
		if id2 <= id {
			t.Fatalf("ids not increasing: %d then %d", id, id2)
		}
		got, err = s.LogLoad(ctx, id2)
		mustNoErr(t, err)
		assertRow(t, got, JobLog{ID: id2, JobGroup: 1, JobID: 7})

		trig2 := trig.Add(time.Second)
		want.TriggerTime, want.TriggerCode, want.TriggerMsg = &trig2, 200, Ptr("任务触发类型：手动触发<br>🎉")
		want.ExecutorAddress, want.ExecutorHandler, want.ExecutorParam = Ptr("http://10.0.0.1:9999/"), Ptr("demoJobHandler"), Ptr("")
		want.ExecutorShardingParam, want.ExecutorFailRetryCount = Ptr("0/1"), 2
		want.JobGroup, want.JobID = 99, 99 // not part of updateTriggerInfo
		mustNoErr(t, s.LogUpdateTriggerInfo(ctx, want))
		want.JobGroup, want.JobID = 1, 7
		got, err = s.LogLoad(ctx, id)
		mustNoErr(t, err)
		assertRow(t, got, want)

		handled := trig.Add(time.Minute)
		want.HandleTime, want.HandleCode, want.HandleMsg = &handled, 500, Ptr("失败 🎉 'x' \\n")
		mustNoErr(t, s.LogUpdateHandleInfo(ctx, want))
		got, err = s.LogLoad(ctx, id)
		mustNoErr(t, err)
		assertRow(t, got, want)

		// Setting back to NULL/empty is preserved as such.
		want.HandleMsg, want.TriggerMsg, want.ExecutorParam = Ptr(""), nil, nil
		mustNoErr(t, s.LogUpdateTriggerInfo(ctx, want))
		mustNoErr(t, s.LogUpdateHandleInfo(ctx, want))
		got, err = s.LogLoad(ctx, id)
		mustNoErr(t, err)
		assertRow(t, got, want)

		_, err = s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 8, TriggerTime: &trig})
		mustNoErr(t, err)
		n, err := s.LogDeleteByJob(ctx, 7)
		mustNoErr(t, err)
		if n != 2 {
			t.Errorf("LogDeleteByJob = %d, want 2", n)
		}
		if _, err := s.LogLoad(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("LogLoad of deleted = %v", err)
		}
	})
}

// logFixture saves a log with the given codes; minute orders trigger_time.
type logFixture struct {
	group, job, minute, trigCode, handleCode, alarm int
	addr                                            *string
}

func saveLogs(t *testing.T, s *Store, base time.Time, fx []logFixture) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	for _, f := range fx {
		tt := base.Add(time.Duration(f.minute) * time.Minute)
		id, err := s.LogSave(ctx, JobLog{JobGroup: f.group, JobID: f.job, TriggerTime: &tt})
		mustNoErr(t, err)
		mustNoErr(t, s.LogUpdateTriggerInfo(ctx, JobLog{ID: id, TriggerTime: &tt, TriggerCode: f.trigCode, ExecutorAddress: f.addr}))
		mustNoErr(t, s.LogUpdateHandleInfo(ctx, JobLog{ID: id, HandleCode: f.handleCode}))
		if f.alarm != 0 {
			if ok, err := s.LogUpdateAlarmStatus(ctx, id, 0, f.alarm); err != nil || !ok {
				t.Fatalf("set alarm: %v %v", ok, err)
			}
		}
		ids = append(ids, id)
	}
	return ids
}

// TestLogPageList covers pageList/pageListCount filters, the log status
// classes and ORDER BY trigger_time DESC (schema.md §4.3).
func TestLogPageList(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2024, 6, 1, 0, 0, 0)
		ids := saveLogs(t, s, base, []logFixture{
			{group: 1, job: 1, minute: 5, trigCode: 200, handleCode: 200}, // 0 success
			{group: 1, job: 2, minute: 1, trigCode: 500, handleCode: 0},   // 1 failed trigger
			{group: 2, job: 3, minute: 3, trigCode: 200, handleCode: 0},   // 2 running
			{group: 2, job: 3, minute: 4, trigCode: 200, handleCode: 500}, // 3 failed handle
			{group: 1, job: 1, minute: 2, trigCode: 0, handleCode: 0},     // 4 just saved
		})
		pick := func(idx ...int) []int64 {
			out := []int64{}
			for _, i := range idx {
				out = append(out, ids[i])
			}
			return out
		}
		from, to := base.Add(2*time.Minute), base.Add(4*time.Minute)
		cases := []struct {
			name string
			f    LogFilter
			want []int64 // trigger_time DESC
		}{
			{"all", LogFilter{}, pick(0, 3, 2, 4, 1)},
			{"group", LogFilter{JobGroup: 1}, pick(0, 4, 1)},
			{"job wins over group", LogFilter{JobGroup: 1, JobID: 3}, pick(3, 2)},
			{"job", LogFilter{JobID: 1}, pick(0, 4)},
			{"inclusive range", LogFilter{From: &from, To: &to}, pick(3, 2, 4)},
			{"from only", LogFilter{From: &to}, pick(0, 3)},
			{"to only", LogFilter{To: &from}, pick(4, 1)},
			{"success", LogFilter{LogStatus: 1}, pick(0)},
			{"failed", LogFilter{LogStatus: 2}, pick(3, 1)},
			{"running", LogFilter{LogStatus: 3}, pick(2)},
			{"other status is all", LogFilter{LogStatus: 7}, pick(0, 3, 2, 4, 1)},
			{"failed in group 2", LogFilter{JobGroup: 2, LogStatus: 2}, pick(3)},
			// 3.4.2: group and job together; newest id first.
			{"3.4.2 group with job", LogFilter{JobGroup: 1, JobID: 3, GroupWithJob: true}, pick()},
			{"3.4.2 group and job", LogFilter{JobGroup: 2, JobID: 3, GroupWithJob: true}, pick(3, 2)},
			{"3.4.2 newest id first", LogFilter{JobGroup: 1, NewestID: true}, pick(4, 1, 0)},
		}
		for _, c := range cases {
			list, total, err := s.LogPageList(ctx, 0, 50, c.f)
			mustNoErr(t, err)
			var got []int64
			for _, l := range list {
				got = append(got, l.ID)
			}
			if !reflect.DeepEqual(sortedIDs(got), c.want) || total != len(c.want) {
				t.Errorf("%s: %v (total %d), want %v", c.name, got, total, c.want)
			}
		}
		assertPaging(t, func(offset, size int) ([]string, int, error) {
			list, n, err := s.LogPageList(ctx, offset, size, LogFilter{})
			var out []string
			for _, l := range list {
				out = append(out, l.TriggerTime.Format(time.TimeOnly))
			}
			return out, n, err
		}, []string{"00:05:00", "00:04:00", "00:03:00", "00:02:00", "00:01:00"})
	})
}

// TestLogCountsBetween covers findLogReport: BETWEEN is inclusive, running
// is trigger_code in (0,200) with handle_code 0, an empty range is all zero.
func TestLogCountsBetween(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		day := at(s, 2024, 6, 1, 0, 0, 0)
		end := day.Add(24*time.Hour - time.Second)
		c, err := s.LogCountsBetween(ctx, day, end)
		mustNoErr(t, err)
		if c != (LogCounts{}) {
			t.Errorf("empty table = %+v", c)
		}
		saveLogs(t, s, day, []logFixture{
			{minute: 0, trigCode: 0, handleCode: 0},        // running (just saved)
			{minute: 1, trigCode: 200, handleCode: 0},      // running
			{minute: 2, trigCode: 200, handleCode: 200},    // success
			{minute: 3, trigCode: 500, handleCode: 0},      // failed
			{minute: 4, trigCode: 200, handleCode: 502},    // failed
			{minute: 1439, trigCode: 200, handleCode: 200}, // 23:59, success
			{minute: 1440, trigCode: 200, handleCode: 200}, // next day
			{minute: -1, trigCode: 200, handleCode: 0},     // previous day
		})
		c, err = s.LogCountsBetween(ctx, day, end)
		mustNoErr(t, err)
		if want := (LogCounts{Total: 6, Running: 2, Success: 2}); c != want {
			t.Errorf("day = %+v, want %+v", c, want)
		}
		// Exactly-on-bound rows count at both ends.
		c, err = s.LogCountsBetween(ctx, day, day)
		mustNoErr(t, err)
		if want := (LogCounts{Total: 1, Running: 1}); c != want {
			t.Errorf("single instant = %+v, want %+v", c, want)
		}
		c, err = s.LogCountsBetween(ctx, day.AddDate(0, 0, 5), day.AddDate(0, 0, 6))
		mustNoErr(t, err)
		if c != (LogCounts{}) {
			t.Errorf("empty range = %+v", c)
		}
	})
}

// TestLogFindClearIDs covers findClearLogIds with each filter and
// clearBeforeNum, plus clearLog.
func TestLogFindClearIDs(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2024, 6, 1, 0, 0, 0)
		// ids in insertion order; trigger minutes deliberately not in id order.
		ids := saveLogs(t, s, base, []logFixture{
			{group: 1, job: 1, minute: 10}, // 0
			{group: 1, job: 1, minute: 30}, // 1
			{group: 1, job: 2, minute: 20}, // 2
			{group: 2, job: 3, minute: 40}, // 3
			{group: 1, job: 1, minute: 5},  // 4
			{group: 2, job: 3, minute: 50}, // 5
		})
		pick := func(idx ...int) []int64 {
			out := []int64{}
			for _, i := range idx {
				out = append(out, ids[i])
			}
			return out
		}
		before := base.Add(20 * time.Minute)
		cases := []struct {
			name string
			f    ClearFilter
			size int
			want []int64 // id ASC
		}{
			{"everything", ClearFilter{}, 100, pick(0, 1, 2, 3, 4, 5)},
			{"page size", ClearFilter{}, 2, pick(0, 1)},
			{"group", ClearFilter{JobGroup: 2}, 100, pick(3, 5)},
			{"job", ClearFilter{JobID: 1}, 100, pick(0, 1, 4)},
			{"group and job", ClearFilter{JobGroup: 1, JobID: 2}, 100, pick(2)},
			{"before is inclusive", ClearFilter{Before: &before}, 100, pick(0, 2, 4)},
			{"keep newest 2 overall", ClearFilter{KeepNewestN: 2}, 100, pick(0, 1, 2, 4)},
			{"keep newest 2 of job 1", ClearFilter{JobID: 1, KeepNewestN: 2}, 100, pick(4)},
			{"keep newest 1 of group 1", ClearFilter{JobGroup: 1, KeepNewestN: 1}, 100, pick(0, 2, 4)},
			{"keep more than exist", ClearFilter{JobGroup: 2, KeepNewestN: 5}, 100, pick()},
			{"keep newest 3, before", ClearFilter{KeepNewestN: 3, Before: &before}, 100, pick(0, 2, 4)},
			{"keep newest 4, before", ClearFilter{KeepNewestN: 4, Before: &before}, 100, pick(0, 4)},
		}
		for _, c := range cases {
			got, err := s.LogFindClearIDs(ctx, c.f, c.size)
			mustNoErr(t, err)
			if !reflect.DeepEqual(sortedIDs(got), c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
		n, err := s.LogClear(ctx, pick(0, 4))
		mustNoErr(t, err)
		if n != 2 {
			t.Errorf("LogClear = %d", n)
		}
		if n, err := s.LogClear(ctx, nil); n != 0 || err != nil {
			t.Errorf("LogClear(nil) = %d, %v", n, err)
		}
		got, err := s.LogFindClearIDs(ctx, ClearFilter{JobID: 1}, 100)
		mustNoErr(t, err)
		if !reflect.DeepEqual(got, pick(1)) {
			t.Errorf("after clear: %v", got)
		}
	})
}

// TestLogFailAndAlarm covers findFailJobLogIds and the updateAlarmStatus
// compare-and-set the alarm monitor uses as a cluster-wide claim.
func TestLogFailAndAlarm(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2024, 6, 1, 0, 0, 0)
		ids := saveLogs(t, s, base, []logFixture{
			{trigCode: 0, handleCode: 0},                // 0 running: not failed
			{trigCode: 200, handleCode: 0},              // 1 running
			{trigCode: 200, handleCode: 200},            // 2 success
			{trigCode: 500, handleCode: 200},            // 3 handle success wins: not failed
			{trigCode: 500, handleCode: 0},              // 4 failed
			{trigCode: 200, handleCode: 500},            // 5 failed
			{trigCode: 0, handleCode: 502},              // 6 failed
			{trigCode: 500, handleCode: 0, alarm: 2},    // 7 failed, already alarmed
			{trigCode: 200, handleCode: 500, alarm: -1}, // 8 failed, claimed
		})
		got, err := s.LogFindFailIDs(ctx, 100)
		mustNoErr(t, err)
		if want := []int64{ids[4], ids[5], ids[6]}; !reflect.DeepEqual(got, want) {
			t.Errorf("LogFindFailIDs = %v, want %v", got, want)
		}
		got, err = s.LogFindFailIDs(ctx, 2)
		mustNoErr(t, err)
		if want := []int64{ids[4], ids[5]}; !reflect.DeepEqual(got, want) {
			t.Errorf("LogFindFailIDs(2) = %v, want %v", got, want)
		}

		ok, err := s.LogUpdateAlarmStatus(ctx, ids[4], 0, -1)
		mustNoErr(t, err)
		if !ok {
			t.Errorf("first claim failed")
		}
		if ok, _ := s.LogUpdateAlarmStatus(ctx, ids[4], 0, -1); ok {
			t.Errorf("second claim of the same row succeeded")
		}
		if ok, _ := s.LogUpdateAlarmStatus(ctx, ids[4], -1, 3); !ok {
			t.Errorf("release -1 → 3 failed")
		}
		l, err := s.LogLoad(ctx, ids[4])
		mustNoErr(t, err)
		if l.AlarmStatus != 3 {
			t.Errorf("alarm_status = %d", l.AlarmStatus)
		}
		if ok, _ := s.LogUpdateAlarmStatus(ctx, 999999, 0, 1); ok {
			t.Errorf("claim of a missing row succeeded")
		}

		// Two admins claiming the same row at once: exactly one wins.
		for round := range 10 {
			id := ids[5]
			if round > 0 {
				_, err := s.LogUpdateAlarmStatus(ctx, id, -1, 0)
				mustNoErr(t, err)
			}
			var wg sync.WaitGroup
			wins := make(chan bool, 2)
			start := make(chan struct{})
			for range 2 {
				wg.Go(func() {
					<-start
					ok, err := s.LogUpdateAlarmStatus(ctx, id, 0, -1)
					if err != nil {
						t.Error(err)
					}
					wins <- ok
				})
			}
			close(start)
			wg.Wait()
			close(wins)
			n := 0
			for ok := range wins {
				if ok {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("round %d: %d claimers won, want 1", round, n)
			}
		}
	})
}

// TestLogFindLostIDs covers findLostJobIds: running (200/0) logs at or
// before the threshold whose address has no registry row of any group/key.
func TestLogFindLostIDs(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2024, 6, 1, 0, 0, 0)
		alive, gone := Ptr("http://alive:9999/"), Ptr("http://gone:9999/")
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "other-app", *alive, base))
		ids := saveLogs(t, s, base, []logFixture{
			{minute: 0, trigCode: 200, handleCode: 0, addr: gone},   // 0 lost
			{minute: 0, trigCode: 200, handleCode: 0, addr: alive},  // 1 registered (any key)
			{minute: 0, trigCode: 200, handleCode: 0},               // 2 NULL address: lost
			{minute: 10, trigCode: 200, handleCode: 0, addr: gone},  // 3 exactly at threshold: lost
			{minute: 11, trigCode: 200, handleCode: 0, addr: gone},  // 4 too recent
			{minute: 0, trigCode: 200, handleCode: 200, addr: gone}, // 5 finished
			{minute: 0, trigCode: 500, handleCode: 0, addr: gone},   // 6 trigger failed
			{minute: 0, trigCode: 0, handleCode: 0, addr: gone},     // 7 not yet triggered
		})
		got, err := s.LogFindLostIDs(ctx, base.Add(10*time.Minute))
		mustNoErr(t, err)
		want := []int64{ids[0], ids[2], ids[3]}
		if !reflect.DeepEqual(sortInt64(got), want) {
			t.Errorf("LogFindLostIDs = %v, want %v", got, want)
		}
	})
}

func sortInt64(xs []int64) []int64 {
	out := append([]int64{}, xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestLogLoadMany(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		a, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1})
		mustNoErr(t, err)
		b, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 2})
		mustNoErr(t, err)
		got, err := s.LogLoadMany(ctx, []int64{a, b, b + 1000})
		mustNoErr(t, err)
		if len(got) != 2 || got[a].JobID != 1 || got[b].JobID != 2 {
			t.Fatalf("got %+v", got)
		}
		empty, err := s.LogLoadMany(ctx, nil)
		mustNoErr(t, err)
		if len(empty) != 0 {
			t.Fatalf("empty: %+v", empty)
		}
	})
}

// TestIDListsBeyondSQLiteVariableLimit is the attack of issue 9 #4: a
// callback POST with more items than SQLite's 32,766 bound variables, and a
// registry-monitor pass over 40,000 dead registrations, must not fail with
// "too many SQL variables" on any backend: id lists are sent in chunks.
func TestIDListsBeyondSQLiteVariableLimit(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now()
		var real []int64
		for range 3 {
			id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now})
			mustNoErr(t, err)
			real = append(real, id)
		}
		ids := make([]int64, 0, 40_000)
		for i := range int64(40_000) {
			ids = append(ids, 1_000_000+i)
		}
		ids = append(ids, real...)
		got, err := s.LogLoadMany(ctx, ids)
		mustNoErr(t, err)
		if len(got) != len(real) {
			t.Fatalf("loaded %d logs, want %d", len(got), len(real))
		}
		n, err := s.LogClear(ctx, ids)
		mustNoErr(t, err)
		if n != int64(len(real)) {
			t.Fatalf("cleared %d logs, want %d", n, len(real))
		}
		_, err = s.RegistryRemoveDead(ctx, ids)
		mustNoErr(t, err)
	})
}
