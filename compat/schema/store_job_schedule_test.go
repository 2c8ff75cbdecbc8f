package schema

import (
	"context"
	"fmt"
	"testing"
)

// TestJobScheduleUpdateBatch checks the batched scheduleUpdate (schema.md
// §4.2) leaves every row as one scheduleUpdate per job would: across batch
// boundaries, with a repeated id (last wins), without touching other
// columns or other jobs, in and out of the schedule-lock transaction.
func TestJobScheduleUpdateBatch(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const n = 2*scheduleBatch + 50
		var jobs []JobInfo
		err := s.WithTx(ctx, func(tx *Store) error {
			for i := range n + 1 { // the last job is not in any batch
				j := JobInfo{JobGroup: 1, JobDesc: fmt.Sprintf("job %d", i), ScheduleType: "CRON",
					MisfireStrategy: "DO_NOTHING", GlueType: "BEAN", TriggerStatus: 1, TriggerNextTime: int64(i)}
				id, err := tx.JobSave(ctx, j)
				if err != nil {
					return err
				}
				j.ID = id
				jobs = append(jobs, j)
			}
			return nil
		})
		mustNoErr(t, err)
		untouched := jobs[n]
		jobs = jobs[:n]

		mustNoErr(t, s.JobScheduleUpdateBatch(ctx, nil))
		update := func(round int64) []JobInfo {
			var batch []JobInfo
			for i, j := range jobs {
				j.TriggerLastTime = 1_700_000_000_000 + round*1000 + int64(i)
				j.TriggerNextTime = 1_800_000_000_000 + round*1000 + int64(i)
				j.TriggerStatus = int((int64(i) + round) % 2)
				j.JobDesc = "must not be written"
				batch = append(batch, j)
			}
			return batch
		}
		check := func(want []JobInfo) {
			t.Helper()
			for _, w := range want {
				got, err := s.JobLoad(ctx, w.ID)
				mustNoErr(t, err)
				if got.TriggerLastTime != w.TriggerLastTime || got.TriggerNextTime != w.TriggerNextTime ||
					got.TriggerStatus != w.TriggerStatus || got.JobDesc == "must not be written" {
					t.Fatalf("job %d = %d/%d/%d %q, want %d/%d/%d", w.ID, got.TriggerLastTime, got.TriggerNextTime,
						got.TriggerStatus, got.JobDesc, w.TriggerLastTime, w.TriggerNextTime, w.TriggerStatus)
				}
			}
			got, err := s.JobLoad(ctx, untouched.ID)
			mustNoErr(t, err)
			assertRow(t, got, untouched)
		}

		first := update(1)
		mustNoErr(t, s.JobScheduleUpdateBatch(ctx, first))
		check(first)

		second := update(2)
		// A repeated id: the later entry wins, as with one statement per job.
		dup := second[3]
		dup.TriggerNextTime, dup.TriggerStatus = 42, 0
		// Both entries fall in the first batch.
		withDup := append(append(append([]JobInfo{}, second[:4]...), dup), second[4:]...)
		mustNoErr(t, s.WithScheduleLock(ctx, func(tx *Store) error { return tx.JobScheduleUpdateBatch(ctx, withDup) }))
		second[3] = dup
		check(second)
	})
}
