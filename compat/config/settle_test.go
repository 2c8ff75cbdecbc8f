package config

import (
	"strings"
	"testing"
	"time"
)

// TestSettleAfter: xxl.job.durable-triggers.settle-after is empty by
// default (the settler derives its grace), takes a duration or
// milliseconds, and refuses less than a second naming the key.
func TestSettleAfter(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{nil, 0},
		{[]string{"--xxl.job.durable-triggers.settle-after=15s"}, 15 * time.Second},
		{[]string{"--xxl.job.durable-triggers.settle-after=20000"}, 20 * time.Second},
	} {
		c, err := Load(fakeEnv(tc.args, nil, nil))
		if err != nil || c.Durable.SettleAfter != tc.want {
			t.Errorf("%v: SettleAfter %v, %v; want %v", tc.args, c.Durable.SettleAfter, err, tc.want)
		}
	}
	for _, bad := range []string{"500ms", "soon"} {
		_, err := Load(fakeEnv([]string{"--xxl.job.durable-triggers.settle-after=" + bad}, nil, nil))
		if err == nil || !strings.Contains(err.Error(), "xxl.job.durable-triggers.settle-after") {
			t.Errorf("%s: error %v; want one naming the key", bad, err)
		}
	}
}
