package schema

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestGlueHistory covers xxl_job_logglue (schema.md §4.4): save, findByJobId
// newest id first, removeOld keeping the newest N by update_time, and
// deleteByJobId.
func TestGlueHistory(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2024, 6, 1, 0, 0, 0)
		var saved []LogGlue
		// update_time runs backwards against id for the first three, so
		// "newest" must follow update_time, not id.
		for i, minute := range []int{30, 20, 10, 40, 50} {
			ut := base.Add(time.Duration(minute) * time.Minute)
			g := LogGlue{JobID: 1, GlueType: Ptr("GLUE_PYTHON"), GlueSource: Ptr("print('版本 🎉')"),
				GlueRemark: "v" + string(rune('1'+i)), AddTime: &base, UpdateTime: &ut}
			id, err := s.GlueSave(ctx, g)
			mustNoErr(t, err)
			g.ID = id
			saved = append(saved, g)
		}
		bare := LogGlue{JobID: 2, GlueRemark: ""}
		id, err := s.GlueSave(ctx, bare)
		mustNoErr(t, err)
		bare.ID = id

		list, err := s.GlueFindByJob(ctx, 1)
		mustNoErr(t, err)
		if len(list) != 5 {
			t.Fatalf("GlueFindByJob = %d rows", len(list))
		}
		for i, g := range list {
			assertRow(t, g, saved[4-i])
		}
		list, err = s.GlueFindByJob(ctx, 2)
		mustNoErr(t, err)
		if len(list) != 1 {
			t.Fatalf("job 2 glue = %d rows", len(list))
		}
		assertRow(t, list[0], bare)

		// Keep the 3 newest by update_time: minutes 50, 40, 30 = saved 4, 3, 0.
		n, err := s.GlueRemoveOld(ctx, 1, 3)
		mustNoErr(t, err)
		if n != 2 {
			t.Errorf("GlueRemoveOld removed %d, want 2", n)
		}
		list, err = s.GlueFindByJob(ctx, 1)
		mustNoErr(t, err)
		if got := glueIDs(list); !equalInts(got, []int{saved[4].ID, saved[3].ID, saved[0].ID}) {
			t.Errorf("after GlueRemoveOld: %v", got)
		}
		if n, _ := s.GlueRemoveOld(ctx, 1, 30); n != 0 {
			t.Errorf("GlueRemoveOld under the limit removed %d", n)
		}
		// Other jobs are untouched.
		if list, _ := s.GlueFindByJob(ctx, 2); len(list) != 1 {
			t.Errorf("job 2 lost its glue")
		}

		n, err = s.GlueDeleteByJob(ctx, 1)
		mustNoErr(t, err)
		if n != 3 {
			t.Errorf("GlueDeleteByJob = %d", n)
		}
		if list, _ := s.GlueFindByJob(ctx, 1); len(list) != 0 {
			t.Errorf("glue left after delete: %v", glueIDs(list))
		}
	})
}

// TestGlueLargeSource checks a 5 MiB glue_source survives intact
// (mediumtext holds 16 MiB, schema.md §1).
func TestGlueLargeSource(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		unit := "line 行 🎉 'q' \\ \"d\"\n"
		src := strings.Repeat(unit, 5<<20/len(unit)+1)
		id, err := s.GlueSave(ctx, LogGlue{JobID: 3, GlueSource: &src, GlueRemark: "big"})
		mustNoErr(t, err)
		list, err := s.GlueFindByJob(ctx, 3)
		mustNoErr(t, err)
		if len(list) != 1 || list[0].ID != id || list[0].GlueSource == nil || *list[0].GlueSource != src {
			t.Fatalf("5 MiB glue_source did not round-trip")
		}
		job, err := s.JobLoad(ctx, 1)
		mustNoErr(t, err)
		job.GlueSource = &src
		_, err = s.JobUpdate(ctx, job)
		mustNoErr(t, err)
		got, err := s.JobLoad(ctx, 1)
		mustNoErr(t, err)
		if got.GlueSource == nil || *got.GlueSource != src {
			t.Fatalf("5 MiB xxl_job_info.glue_source did not round-trip")
		}
	})
}

func glueIDs(gs []LogGlue) []int {
	out := []int{}
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
