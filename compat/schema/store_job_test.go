package schema

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func jobIDs(js []JobInfo) []int {
	out := []int{}
	for _, j := range js {
		out = append(out, j.ID)
	}
	return out
}

// TestJobCRUD covers save/loadById/update/delete of schema.md §4.2 with
// every column, NULLs, empty strings and utf8mb4 text.
func TestJobCRUD(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		added, updated, glued := at(s, 2024, 1, 2, 3, 4, 5), at(s, 2024, 1, 2, 3, 4, 6), at(s, 2024, 12, 31, 23, 59, 59)
		full := JobInfo{JobGroup: 1, JobDesc: "每日报表 🎉 'quoted' \\ back", AddTime: &added, UpdateTime: &updated,
			Author: Ptr("李雷"), AlarmEmail: Ptr("a@b.c,d@e.f"), ScheduleType: "FIX_RATE", ScheduleConf: Ptr("30"),
			MisfireStrategy: "FIRE_ONCE_NOW", ExecutorRouteStrategy: Ptr("SHARDING_BROADCAST"),
			ExecutorHandler: Ptr("shardingJobHandler"), ExecutorParam: Ptr(strings.Repeat("p", 512)),
			ExecutorBlockStrategy: Ptr("COVER_EARLY"), ExecutorTimeout: 60, ExecutorFailRetryCount: 3,
			GlueType: "GLUE_SHELL", GlueSource: Ptr("#!/bin/bash\necho 你好 🎉\n"), GlueRemark: Ptr("init"),
			GlueUpdatetime: &glued, ChildJobID: Ptr("1,2"), TriggerStatus: 1,
			TriggerLastTime: 1700000000123, TriggerNextTime: 1700000030123}
		// Only the NOT NULL columns set: every nullable one must stay NULL.
		bare := JobInfo{JobGroup: 2, JobDesc: "", ScheduleType: "NONE", MisfireStrategy: "DO_NOTHING", GlueType: "BEAN"}
		for _, j := range []*JobInfo{&full, &bare} {
			id, err := s.JobSave(ctx, *j)
			mustNoErr(t, err)
			j.ID = id
			got, err := s.JobLoad(ctx, id)
			mustNoErr(t, err)
			assertRow(t, got, *j)
		}
		// trigger_next_time is epoch ms verbatim (schema.md §3).
		if got := rawString(t, s, "SELECT CAST(trigger_next_time AS CHAR) FROM xxl_job_info WHERE id = ?", full.ID); *got != "1700000030123" {
			t.Errorf("raw trigger_next_time = %s", *got)
		}

		// update overwrites everything but add_time.
		otherAdd := at(s, 2000, 1, 1, 0, 0, 0)
		changed := bare
		changed.AddTime = &otherAdd
		changed.JobGroup, changed.JobDesc, changed.Author, changed.ScheduleConf = 3, "改了", Ptr(""), Ptr("0 * * * * ?")
		changed.ExecutorTimeout, changed.ExecutorFailRetryCount, changed.TriggerStatus = 5, 1, 1
		changed.TriggerLastTime, changed.TriggerNextTime, changed.UpdateTime = 1, 2, &updated
		n, err := s.JobUpdate(ctx, changed)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("JobUpdate = %d", n)
		}
		got, err := s.JobLoad(ctx, bare.ID)
		mustNoErr(t, err)
		changed.AddTime = nil // add_time is never updated
		assertRow(t, got, changed)

		full.Author, full.ChildJobID, full.GlueSource = nil, nil, nil
		_, err = s.JobUpdate(ctx, full)
		mustNoErr(t, err)
		got, err = s.JobLoad(ctx, full.ID)
		mustNoErr(t, err)
		assertRow(t, got, full)

		n, err = s.JobDelete(ctx, full.ID)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("JobDelete = %d", n)
		}
		if _, err := s.JobLoad(ctx, full.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("JobLoad of deleted = %v", err)
		}
		if n, _ := s.JobDelete(ctx, full.ID); n != 0 {
			t.Errorf("second JobDelete = %d", n)
		}
	})
}

// TestJobQueries covers pageList (filters, id DESC, paging), pageListCount,
// getJobsByGroup, findAllCount and scheduleJobQuery/scheduleUpdate.
func TestJobQueries(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		rawExec(t, s, "DELETE FROM xxl_job_info")
		type spec struct {
			group, status int
			desc, handler string
			author        *string
			next          int64
		}
		specs := []spec{
			{1, 1, "a_c", "h1", Ptr("XXL"), 1000},
			{1, 0, "abc", "h_1", Ptr("xxl"), 500},
			{2, 1, "a%c", "h2", nil, 2000},
			{2, 1, "中文 🎉", "h2", Ptr("O'Neil"), 2001},
			{1, 1, `a\c`, "", Ptr(`back\slash`), 999},
		}
		var ids []int
		for _, sp := range specs {
			id, err := s.JobSave(ctx, JobInfo{JobGroup: sp.group, TriggerStatus: sp.status, JobDesc: sp.desc,
				ExecutorHandler: Ptr(sp.handler), Author: sp.author, ScheduleType: "CRON", MisfireStrategy: "DO_NOTHING",
				GlueType: "BEAN", TriggerNextTime: sp.next})
			mustNoErr(t, err)
			ids = append(ids, id)
		}
		desc := func(idx ...int) []int {
			out := []int{}
			for i := len(idx) - 1; i >= 0; i-- {
				out = append(out, ids[idx[i]])
			}
			return out
		}
		cases := []struct {
			name string
			f    JobFilter
			want []int
		}{
			{"all", JobFilter{}, desc(0, 1, 2, 3, 4)},
			{"group 1", JobFilter{JobGroup: 1}, desc(0, 1, 4)},
			{"group 0 is all", JobFilter{JobGroup: 0}, desc(0, 1, 2, 3, 4)},
			{"stopped", JobFilter{TriggerStatus: Ptr(0)}, desc(1)},
			{"running group 2", JobFilter{JobGroup: 2, TriggerStatus: Ptr(1)}, desc(2, 3)},
			{"desc underscore literal", JobFilter{JobDesc: "a_c"}, desc(0)},
			{"desc percent literal", JobFilter{JobDesc: "%"}, desc(2)},
			{"desc backslash literal", JobFilter{JobDesc: `\`}, desc(4)},
			{"desc emoji", JobFilter{JobDesc: "🎉"}, desc(3)},
			{"handler underscore", JobFilter{ExecutorHandler: "h_"}, desc(1)},
			{"author case-insensitive", JobFilter{Author: "XxL"}, desc(0, 1)},
			{"author quote", JobFilter{Author: "O'N"}, desc(3)},
			{"combined", JobFilter{JobGroup: 1, TriggerStatus: Ptr(1), JobDesc: "a", Author: "x"}, desc(0)},
			{"no match", JobFilter{JobDesc: "zzz"}, []int{}},
			{"permitted groups", JobFilter{JobGroups: []int{2}}, desc(2, 3)},
			{"permitted groups and group", JobFilter{JobGroup: 1, JobGroups: []int{2}}, []int{}},
			{"no permitted group", JobFilter{JobGroups: []int{}}, []int{}},
		}
		for _, c := range cases {
			list, total, err := s.JobPageList(ctx, 0, 100, c.f)
			mustNoErr(t, err)
			if !reflect.DeepEqual(jobIDs(list), c.want) || total != len(c.want) {
				t.Errorf("%s: ids %v total %d, want %v", c.name, jobIDs(list), total, c.want)
			}
			n, err := s.JobCount(ctx, c.f)
			mustNoErr(t, err)
			if n != len(c.want) {
				t.Errorf("%s: JobCount %d", c.name, n)
			}
		}
		var all []string
		for _, id := range desc(0, 1, 2, 3, 4) {
			all = append(all, specs[indexOf(ids, id)].desc)
		}
		assertPaging(t, func(offset, size int) ([]string, int, error) {
			js, n, err := s.JobPageList(ctx, offset, size, JobFilter{})
			var out []string
			for _, j := range js {
				out = append(out, j.JobDesc)
			}
			return out, n, err
		}, all)

		byGroup, err := s.JobsByGroup(ctx, 1)
		mustNoErr(t, err)
		if got := jobIDs(byGroup); !reflect.DeepEqual(got, []int{ids[0], ids[1], ids[4]}) {
			t.Errorf("JobsByGroup(1) = %v", got)
		}
		if byGroup, _ := s.JobsByGroup(ctx, 9); len(byGroup) != 0 {
			t.Errorf("JobsByGroup(9) = %v", byGroup)
		}
		if n, err := s.JobFindAllCount(ctx); err != nil || n != 5 {
			t.Errorf("JobFindAllCount = %d, %v", n, err)
		}

		// scheduleJobQuery: running, next <= max (inclusive), id ASC, LIMIT.
		for _, c := range []struct {
			max  int64
			size int
			want []int
		}{
			{999, 10, []int{ids[4]}},
			{1000, 10, []int{ids[0], ids[4]}},
			{2000, 10, []int{ids[0], ids[2], ids[4]}},
			{5000, 10, []int{ids[0], ids[2], ids[3], ids[4]}},
			{5000, 2, []int{ids[0], ids[2]}},
			{5000, 0, []int{}},
			{998, 10, []int{}},
		} {
			js, err := s.JobScheduleQuery(ctx, c.max, c.size)
			mustNoErr(t, err)
			if got := jobIDs(js); !reflect.DeepEqual(got, c.want) {
				t.Errorf("JobScheduleQuery(%d,%d) = %v, want %v", c.max, c.size, got, c.want)
			}
		}

		// scheduleUpdate writes only the three trigger columns.
		before, err := s.JobLoad(ctx, ids[3])
		mustNoErr(t, err)
		mustNoErr(t, s.JobScheduleUpdate(ctx, JobInfo{ID: ids[3], JobDesc: "ignored", JobGroup: 99,
			TriggerStatus: 0, TriggerLastTime: 1717171717171, TriggerNextTime: 0}))
		before.TriggerStatus, before.TriggerLastTime, before.TriggerNextTime = 0, 1717171717171, 0
		after, err := s.JobLoad(ctx, ids[3])
		mustNoErr(t, err)
		assertRow(t, after, before)
	})
}

func indexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
