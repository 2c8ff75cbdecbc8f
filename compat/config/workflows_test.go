package config

import (
	"strings"
	"testing"
)

// TestWorkflowsKey: xxl.job.workflows.enabled is off by default, on when
// given, and refused without durable triggers (every node trigger is a
// pending row).
func TestWorkflowsKey(t *testing.T) {
	tests := []struct {
		args    []string
		want    bool
		wantErr string
	}{
		{nil, false, ""},
		{[]string{"--xxl.job.workflows.enabled=true"}, true, ""},
		{[]string{"--xxl.job.workflows.enabled=true", "--xxl.job.durable-triggers=false"}, false, "xxl.job.workflows.enabled"},
	}
	for _, tt := range tests {
		c, err := Load(fakeEnv(tt.args, nil, nil))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want one naming %s", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || c.Workflows != tt.want {
			t.Errorf("%v: Workflows = %v, %v; want %v", tt.args, c != nil && c.Workflows, err, tt.want)
		}
	}
}
