package cron

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestRunCLI checks the operator subcommand's output object and exit
// codes (0 valid, 1 invalid, 2 usage); fire times follow scheduler.md §2.1.
func TestRunCLI(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderrIn string
	}{
		{
			name:   "valid",
			args:   []string{"--tz", "UTC", "--from", "2024-11-16T10:15:30.5Z", "--count", "3", "*/5 * * * * ?"},
			stdout: `{"expr":"*/5 * * * * ?","valid":true,"error":"","next_ms":[1731752135000,1731752140000,1731752145000]}` + "\n",
		},
		{
			name:   "single dash flags",
			args:   []string{"-tz=Asia/Shanghai", "-from=2024-01-01T00:00:00Z", "-count=1", "0 0 12 * * ?"},
			stdout: `{"expr":"0 0 12 * * ?","valid":true,"error":"","next_ms":[1704081600000]}` + "\n",
		},
		{
			name:   "schedule runs out",
			args:   []string{"--tz", "UTC", "--from", "2024-11-16T10:15:30Z", "0 0 0 29 2 ? 2025-2030"},
			stdout: `{"expr":"0 0 0 29 2 ? 2025-2030","valid":true,"error":"","next_ms":[1835395200000]}` + "\n",
		},
		{
			name:   "count zero",
			args:   []string{"--count", "0", "* * * * * ?"},
			stdout: `{"expr":"* * * * * ?","valid":true,"error":"","next_ms":[]}` + "\n",
		},
		{
			name:   "invalid",
			args:   []string{"* * * * *"},
			code:   1,
			stdout: `{"expr":"* * * * *","valid":false,"error":"Unexpected end of expression.","next_ms":[]}` + "\n",
		},
		{
			name:   "no html escaping",
			args:   []string{"0 0 0 ? * <"},
			code:   1,
			stdout: `{"expr":"0 0 0 ? * <","valid":false,"error":"Unexpected character: <","next_ms":[]}` + "\n",
		},
		{name: "unknown flag", args: []string{"--bogus", "* * * * * ?"}, code: 2, stderrIn: "bogus"},
		{name: "no expression", args: nil, code: 2, stderrIn: "exactly one expression"},
		{name: "two expressions", args: []string{"a", "b"}, code: 2, stderrIn: "exactly one expression"},
		{name: "bad zone", args: []string{"--tz", "Nowhere/City", "* * * * * ?"}, code: 2, stderrIn: "--tz"},
		{name: "bad from", args: []string{"--from", "yesterday", "* * * * * ?"}, code: 2, stderrIn: "--from"},
		{name: "negative count", args: []string{"--count", "-1", "* * * * * ?"}, code: 2, stderrIn: "--count"},
		{name: "help", args: []string{"-h"}, code: 0, stderrIn: "usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := RunCLI(tt.args, &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut.String())
			}
			if tt.code != 2 && out.String() != tt.stdout {
				t.Errorf("stdout %q, want %q", out.String(), tt.stdout)
			}
			if tt.code == 2 && out.Len() != 0 {
				t.Errorf("usage error wrote stdout %q", out.String())
			}
			if !strings.Contains(errOut.String(), tt.stderrIn) {
				t.Errorf("stderr %q lacks %q", errOut.String(), tt.stderrIn)
			}
		})
	}
}

// TestRunCLIDefaults checks the defaults: local zone, start now, ten times.
func TestRunCLIDefaults(t *testing.T) {
	before := time.Now()
	var out, errOut bytes.Buffer
	if code := RunCLI([]string{"* * * * * ?"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	var res struct {
		Valid  bool    `json:"valid"`
		NextMs []int64 `json:"next_ms"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("decode %q: %v", out.String(), err)
	}
	if !res.Valid || len(res.NextMs) != 10 {
		t.Fatalf("got %+v", res)
	}
	if res.NextMs[0] <= before.UnixMilli()-1000 || res.NextMs[9]-res.NextMs[0] != 9000 {
		t.Errorf("times %v do not start at now (%d)", res.NextMs, before.UnixMilli())
	}
}
