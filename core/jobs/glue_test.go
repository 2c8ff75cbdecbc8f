package jobs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestSaveGlue checks /jobcode/save's refusals (recording jobcode_save.en),
// the job and version rows it writes, and that only 30 versions are kept.
func TestSaveGlue(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService(s, "en", t0)
		j := testfactory.Job(t, s, testfactory.JobOpts{GlueType: "GLUE_SHELL", Status: 1, Next: 42})
		src := schema.Ptr("#!/bin/bash\r\necho \"v2\"\n")
		for _, c := range []struct {
			id     int
			remark *string
			want   string
		}{
			{j.ID, nil, "please input Resource Remark"},
			{j.ID, schema.Ptr("abc"), "Resource Remark length is limited to 4~100"},
			{j.ID, schema.Ptr(strings.Repeat("r", 101)), "Resource Remark length is limited to 4~100"},
			{9999, schema.Ptr("remark"), "Job ID is illegal"},
		} {
			if got := refusal(t, svc.SaveGlue(ctx, c.id, src, c.remark, nil)); got != c.want {
				t.Errorf("remark %v id %d: %q, want %q", c.remark, c.id, got, c.want)
			}
		}
		if err := svc.SaveGlue(ctx, j.ID, src, schema.Ptr("second version"), func(int) bool { return false }); !errors.Is(err, ErrPermission) {
			t.Errorf("foreign group: %v", err)
		}
		for i := range 32 {
			if err := svc.SaveGlue(ctx, j.ID, src, schema.Ptr("version "+itoa(i)), nil); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := s.JobLoad(ctx, j.ID)
		if *got.GlueSource != *src || *got.GlueRemark != "version 31" || !got.GlueUpdatetime.Equal(t0) {
			t.Errorf("job glue %q %q %v", *got.GlueSource, *got.GlueRemark, got.GlueUpdatetime)
		}
		if got.TriggerStatus != 1 || got.TriggerNextTime != 42 {
			t.Errorf("glue save touched the schedule: %d %d", got.TriggerStatus, got.TriggerNextTime)
		}
		versions, err := s.GlueFindByJob(ctx, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(versions) != GlueVersionsKept || versions[0].GlueRemark != "version 31" || *versions[0].GlueType != "GLUE_SHELL" {
			t.Errorf("%d versions, newest %+v", len(versions), versions[0])
		}
	})
}
