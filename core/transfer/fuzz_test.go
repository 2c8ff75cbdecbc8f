package transfer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// FuzzDecode: any input is a document or an error, never a panic, and a
// decoded document encodes and decodes to itself.
func FuzzDecode(f *testing.F) {
	f.Add(`{"format":"xxl-admin-go/jobs","version":1,"groups":[],"jobs":[]}`)
	f.Add(`{"format":"xxl-admin-go/jobs","version":1,"groups":[{"appname":"a","title":"t","addressType":1,"addressList":["x"]}],` +
		`"jobs":[{"group":"a","jobDesc":"d","author":null,"scheduleType":"CRON","childJobs":[{"group":"a","executorHandler":"h","jobDesc":"d"}],"running":true}]}`)
	f.Add(`{"format":"xxl-admin-go/jobs","version":2}`)
	f.Fuzz(func(t *testing.T, in string) {
		d, err := Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Encode(&b, d); err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(&b); err != nil {
			t.Fatalf("re-decode of %q: %v", in, err)
		}
	})
}

// FuzzSplitKey: a key read from a description joins back to it.
func FuzzSplitKey(f *testing.F) {
	for _, s := range []string{"a [key:b]", "x [key:]", "[key:a]", "a [key:b c]", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stored string) {
		desc, key := jobs.SplitKey(stored)
		if key != "" && (jobs.JoinKey(desc, key) != stored || !jobs.ValidKey(key)) {
			t.Fatalf("SplitKey(%q) = %q, %q", stored, desc, key)
		}
		if key == "" && desc != stored {
			t.Fatalf("SplitKey(%q) changed the description to %q", stored, desc)
		}
	})
}
