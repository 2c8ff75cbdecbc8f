package schema

import (
	"context"
	"slices"
	"testing"
)

// TestLogIDsCausalPlain: on a database that is no Galera node (the test
// servers, SQLite) Galera says so and the causal read is a plain read of
// which ids exist. The Galera side is conformance/galera's
// TestGaleraCallbackOutrunsReplication, against a real cluster.
func TestLogIDsCausalPlain(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		galera, err := s.Galera(ctx)
		mustNoErr(t, err)
		if galera {
			t.Fatal("Galera() = true on a server without wsrep")
		}
		a, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 7})
		mustNoErr(t, err)
		b, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 7})
		mustNoErr(t, err)
		got, err := s.LogIDsCausal(ctx, []int64{b, b + 1000, a})
		mustNoErr(t, err)
		slices.Sort(got)
		if !slices.Equal(got, []int64{a, b}) {
			t.Fatalf("LogIDsCausal = %v, want [%d %d]", got, a, b)
		}
		if got, err := s.LogIDsCausal(ctx, nil); err != nil || len(got) != 0 {
			t.Fatalf("LogIDsCausal(nil) = %v, %v", got, err)
		}
	})
}
