package route

import "testing"

// routing.md §1.1 (FIRST/LAST) and §1.8 (SHARDING_BROADCAST address pick).
func TestPositionStrategies(t *testing.T) {
	abc := []string{"a", "b", "c"}
	tests := []struct {
		name  string
		req   Request
		addrs []string
		want  string
	}{
		{NameFirst, Request{JobID: 7}, abc, "a"},
		{NameFirst, Request{JobID: 7}, []string{"only"}, "only"},
		{NameLast, Request{JobID: 7}, abc, "c"},
		{NameLast, Request{JobID: 7}, []string{"only"}, "only"},
		{NameShardingBroadcast, Request{JobID: 7, BroadcastIndex: 0}, abc, "a"},
		{NameShardingBroadcast, Request{JobID: 7, BroadcastIndex: 1}, abc, "b"},
		{NameShardingBroadcast, Request{JobID: 7, BroadcastIndex: 2}, abc, "c"},
		// A retry of shard 3/4 after the list shrank goes to list[0].
		{NameShardingBroadcast, Request{JobID: 7, BroadcastIndex: 3}, abc, "a"},
		{NameShardingBroadcast, Request{JobID: 7, BroadcastIndex: -1}, abc, "a"},
	}
	r := NewRegistry(Config{})
	for _, tc := range tests {
		got := mustLookup(t, r, tc.name).Route(t.Context(), tc.req, tc.addrs)
		want := Result{Code: CodeSuccess, Address: tc.want}
		if got != want {
			t.Errorf("%s %+v %v = %+v, want %+v", tc.name, tc.req, tc.addrs, got, want)
		}
	}
}
