package workflow

import (
	"reflect"
	"testing"
	"time"
)

func TestParseParams(t *testing.T) {
	tests := []struct {
		in      string
		want    map[string]string
		wantErr bool
	}{
		{"", map[string]string{}, false},
		{"day=2026-11-28\n# note\n\nregion = eu\r\n", map[string]string{"day": "2026-11-28", "region": " eu"}, false},
		{"a=1&b=x=y", map[string]string{"a": "1&b=x=y"}, false},
		{"novalue", nil, true},
		{"bad key=1", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseParams(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("ParseParams(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestExpand(t *testing.T) {
	v := Vars{RunID: 42, Time: time.Date(2026, 11, 28, 3, 4, 5, 0, time.UTC),
		Params: MergeParams(map[string]string{"day": "x", "env": "prod"}, map[string]string{"day": "2026-11-28"})}
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"run=${run.id} at ${run.time}", "run=42 at 2026-11-28 03:04:05"},
		{"--day=${param.day} --env=${param.env}", "--day=2026-11-28 --env=prod"},
		{"${param.missing} ${other} ${unclosed", "${param.missing} ${other} ${unclosed"},
		{"${run.id}${run.id}", "4242"},
	}
	for _, tt := range tests {
		if got := Expand(tt.in, v); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
