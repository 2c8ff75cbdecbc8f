package javaexec

import (
	"strings"
	"testing"
)

func TestMarkerWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   bool
	}{
		{"whole line", []string{"log\nEXECUTOR STARTED version=2.4.2\n"}, true},
		{"split across writes", []string{"log\nEXECUT", "OR STA", "RTED\n"}, true},
		{"byte by byte", strings.Split("xEXECUTOR STARTED", ""), true},
		{"absent", []string{"EXECUTOR STOPPED\n", "EXECUTOR START"}, false},
		{"twice closes once", []string{"EXECUTOR STARTED\n", "EXECUTOR STARTED\n"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf lockedBuffer
			w := newMarkerWriter(&buf, startedMarker)
			for _, s := range tc.writes {
				if _, err := w.Write([]byte(s)); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-w.found:
				if !tc.want {
					t.Error("marker reported but not written")
				}
			default:
				if tc.want {
					t.Error("marker written but not reported")
				}
			}
			if got := buf.String(); got != strings.Join(tc.writes, "") {
				t.Errorf("forwarded %q, want everything written", got)
			}
		})
	}
}
