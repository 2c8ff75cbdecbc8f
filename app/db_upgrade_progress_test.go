package app

import (
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestUpgradeSteps prints two steps, the first one long, as a terminal
// and as a file see them.
func TestUpgradeSteps(t *testing.T) {
	log := schema.UpgradeStep{Table: "xxl_job_log", Rows: 10_000_000}
	info := schema.UpgradeStep{Table: "xxl_job_info", Rows: 50}
	tests := []struct {
		name     string
		terminal bool
		want     string
	}{
		{"terminal", true, "step 1/2 xxl_job_log [rows: 10000000] ... " +
			"\rstep 1/2 xxl_job_log [rows: 10000000] ... —, 1s\033[K" +
			"\rstep 1/2 xxl_job_log [rows: 10000000] ... 40%, 12s\033[K" +
			"\rstep 1/2 xxl_job_log [rows: 10000000] ... 90%, 22s\033[K" +
			"\rstep 1/2 xxl_job_log [rows: 10000000] ... 25.5s\033[K\n" +
			"step 2/2 xxl_job_info [rows: 50] ... 3ms\n"},
		// A file gets a line every 10 s of the step, and the step's end
		// on a line of its own once its first line was ended.
		{"file", false, "step 1/2 xxl_job_log [rows: 10000000] ... \n" +
			"  step 1/2 xxl_job_log: 40% done, 12s\n" +
			"  step 1/2 xxl_job_log: 90% done, 22s\n" +
			"step 1/2 xxl_job_log done in 25.5s\n" +
			"step 2/2 xxl_job_info [rows: 50] ... 3ms\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			u := newUpgradeSteps(&b, tc.terminal, 2)
			u.started(0, log)
			u.progress(0, log, -1, time.Second)
			u.progress(0, log, 0.4, 12*time.Second)
			u.progress(0, log, 0.9, 22*time.Second)
			u.finished(0, log, 25500*time.Millisecond)
			u.started(1, info)
			u.finished(1, info, 3*time.Millisecond)
			if got := b.String(); got != tc.want {
				t.Errorf("output:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
