package config

import (
	"testing"
	"time"
)

// TestForGeneration: on a 3.x database the 3.4.2 admin's bundled defaults
// apply where a key is not given (its application.properties: context
// path /, trigger pools 300/200; XxlJobAdminBootstrap: retention below 3
// days turns cleanup off), while every given key keeps its value.
func TestForGeneration(t *testing.T) {
	cases := []struct {
		name                   string
		args                   []string
		wantPath2, wantPath3   string
		fast3, slow3           int
		retention2, retention3 int
	}{
		{"defaults", nil, "/xxl-job-admin", "", 300, 200, 30, 30},
		{"given context path", []string{"--server.servlet.context-path=/xxl-job-admin"}, "/xxl-job-admin", "/xxl-job-admin", 300, 200, 30, 30},
		{"given pools", []string{"--xxl.job.triggerpool.fast.max=250", "--xxl.job.triggerpool.slow.max=50"}, "/xxl-job-admin", "", 250, 100, 30, 30},
		{"short retention", []string{"--xxl.job.logretentiondays=5"}, "/xxl-job-admin", "", 300, 200, -1, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c2, err := Load(fakeEnv(tc.args, nil, nil))
			if err != nil {
				t.Fatal(err)
			}
			c3, err := c2.ForGeneration(3)
			if err != nil {
				t.Fatal(err)
			}
			if c2.Generation != 2 || c3.Generation != 3 {
				t.Errorf("generations %d, %d", c2.Generation, c3.Generation)
			}
			if c2.ContextPath != tc.wantPath2 || c3.ContextPath != tc.wantPath3 {
				t.Errorf("context paths %q, %q; want %q, %q", c2.ContextPath, c3.ContextPath, tc.wantPath2, tc.wantPath3)
			}
			if c3.TriggerFastMax != tc.fast3 || c3.TriggerSlowMax != tc.slow3 {
				t.Errorf("3.x pools %d/%d, want %d/%d", c3.TriggerFastMax, c3.TriggerSlowMax, tc.fast3, tc.slow3)
			}
			if c2.LogRetentionDays != tc.retention2 || c3.LogRetentionDays != tc.retention3 {
				t.Errorf("retention %d, %d; want %d, %d", c2.LogRetentionDays, c3.LogRetentionDays, tc.retention2, tc.retention3)
			}
			if back, _ := c3.ForGeneration(2); back.ContextPath != c2.ContextPath || back.TriggerFastMax != c2.TriggerFastMax {
				t.Errorf("ForGeneration(2) of the 3.x config = %q %d", back.ContextPath, back.TriggerFastMax)
			}
		})
	}
}

// TestKeys3x: the keys the 3.4.2 admin adds (its application.properties),
// with Java's rules: xxl.job.schedule.batchsize outside 50-500 is 100.
func TestKeys3x(t *testing.T) {
	c, err := Load(fakeEnv(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.ExecutorTimeout != 3*time.Second || c.ScheduleBatchSize != 100 || c.SSO.TokenKey != "xxl_job_login_token" ||
		c.SSO.TokenTimeout != 7*24*time.Hour || c.Schema != "2.4" || c.AllowUnknownColumns {
		t.Errorf("defaults: %+v %v %d %q", c.SSO, c.ExecutorTimeout, c.ScheduleBatchSize, c.Schema)
	}
	c, err = Load(fakeEnv([]string{"--xxl.job.timeout=10", "--xxl.job.schedule.batchsize=600", "--xxl-sso.token.key=tok",
		"--xxl-sso.token.timeout=60000", "--xxl.job.schema=3.4"}, []string{"XXL_JOB_SCHEMA_ALLOWUNKNOWNCOLUMNS=true"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.ExecutorTimeout != 10*time.Second || c.ScheduleBatchSize != 100 || c.SSO.TokenKey != "tok" ||
		c.SSO.TokenTimeout != time.Minute || c.Schema != "3.4" || !c.AllowUnknownColumns {
		t.Errorf("given: %+v %v %d %q %v", c.SSO, c.ExecutorTimeout, c.ScheduleBatchSize, c.Schema, c.AllowUnknownColumns)
	}
	if c, _ = Load(fakeEnv([]string{"--xxl.job.schedule.batchsize=200"}, nil, nil)); c.ScheduleBatchSize != 200 {
		t.Errorf("batchsize 200 read as %d", c.ScheduleBatchSize)
	}
	for _, bad := range [][]string{{"--xxl.job.schema=4"}, {"--xxl.job.timeout=0"}, {"--xxl.job.timeout=x"}} {
		if _, err := Load(fakeEnv(bad, nil, nil)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
