package javaexec

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseRuns(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Run
		wantErr  string
	}{
		{name: "empty", in: ""},
		{name: "runs", in: "12 successHandler\n12 successHandler\n7 slowHandler\n",
			want: []Run{{12, "successHandler"}, {12, "successHandler"}, {7, "slowHandler"}}},
		{name: "no handler", in: "12\n", wantErr: `line 1 "12"`},
		{name: "bad id", in: "1 a\nx successHandler\n", wantErr: "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRuns(strings.NewReader(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v %v, want %v", got, err, tc.want)
			}
		})
	}
}

func TestReadRunsMissingFile(t *testing.T) {
	runs, err := ReadRuns(filepath.Join(t.TempDir(), "none"))
	if err != nil || runs != nil {
		t.Fatalf("missing ledger: %v %v, want no runs", runs, err)
	}
}

func TestCountRuns(t *testing.T) {
	got := CountRuns([]Run{{1, "a"}, {2, "a"}, {1, "b"}})
	if want := map[int64]int{1: 2, 2: 1}; !reflect.DeepEqual(got, want) {
		t.Fatalf("%v, want %v", got, want)
	}
}
