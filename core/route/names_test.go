package route

import (
	"slices"
	"testing"
)

// routing.md §1 table: names, keys and console order.
func TestStrategiesOrder(t *testing.T) {
	var names, keys []string
	for _, in := range Strategies() {
		names = append(names, in.Name)
		keys = append(keys, in.TitleKey)
		if in.Broadcast != (in.Name == NameShardingBroadcast) {
			t.Errorf("%s: Broadcast = %v", in.Name, in.Broadcast)
		}
	}
	wantNames := []string{"FIRST", "LAST", "ROUND", "RANDOM", "CONSISTENT_HASH",
		"LEAST_FREQUENTLY_USED", "LEAST_RECENTLY_USED", "FAILOVER", "BUSYOVER", "SHARDING_BROADCAST"}
	wantKeys := []string{"jobconf_route_first", "jobconf_route_last", "jobconf_route_round",
		"jobconf_route_random", "jobconf_route_consistenthash", "jobconf_route_lfu",
		"jobconf_route_lru", "jobconf_route_failover", "jobconf_route_busyover", "jobconf_route_shard"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("names = %v, want %v", names, wantNames)
	}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("keys = %v, want %v", keys, wantKeys)
	}
}

// routing.md intro: exact, case-sensitive names; unknown → not found.
func TestLookup(t *testing.T) {
	r := NewRegistry(Config{})
	for _, in := range Strategies() {
		if s, ok := r.Lookup(in.Name); !ok || s == nil {
			t.Errorf("Lookup(%q) = %v, %v", in.Name, s, ok)
		}
	}
	for _, bad := range []string{"", "first", "First", " FIRST", "FIRST ", "SHARDING", "null"} {
		if s, ok := r.Lookup(bad); ok || s != nil {
			t.Errorf("Lookup(%q) = %v, %v; want nil, false", bad, s, ok)
		}
		if _, ok := Describe(bad); ok {
			t.Errorf("Describe(%q) ok", bad)
		}
		if _, ok := r.Title(bad); ok {
			t.Errorf("Title(%q) ok", bad)
		}
	}
}

// routing.md §1 table: titles per bundle.
func TestTitle(t *testing.T) {
	tests := []struct {
		lang, name, want string
	}{
		{"en", NameFirst, "First"},
		{"en", NameConsistentHash, "Consistent Hash"},
		{"en", NameLeastFrequentlyUsed, "Least Frequently Used"},
		{"en", NameShardingBroadcast, "Sharding Broadcast"},
		{"zh_CN", NameFirst, "第一个"},
		{"zh_CN", NameLast, "最后一个"},
		{"zh_CN", NameRound, "轮询"},
		{"zh_CN", NameRandom, "随机"},
		{"zh_CN", NameConsistentHash, "一致性HASH"},
		{"zh_CN", NameLeastFrequentlyUsed, "最不经常使用"},
		{"zh_CN", NameLeastRecentlyUsed, "最近最久未使用"},
		{"zh_CN", NameFailover, "故障转移"},
		{"zh_CN", NameBusyover, "忙碌转移"},
		{"zh_CN", NameShardingBroadcast, "分片广播"},
	}
	for _, tc := range tests {
		r := NewRegistry(Config{Text: bundleText(t, tc.lang)})
		got, ok := r.Title(tc.name)
		if !ok || got != tc.want {
			t.Errorf("%s Title(%s) = %q, %v; want %q", tc.lang, tc.name, got, ok, tc.want)
		}
	}
	// Without a bundle the key is shown, never an empty title.
	if got, _ := NewRegistry(Config{}).Title(NameLast); got != "jobconf_route_last" {
		t.Errorf("default Title = %q", got)
	}
}

// Package doc: an empty list is a 500 without msg for every strategy, never
// a panic; the caller writes the address-empty text (scheduler.md §6).
func TestEmptyList(t *testing.T) {
	r := NewRegistry(Config{Prober: &fakeProber{}})
	for _, in := range Strategies() {
		for _, addrs := range [][]string{nil, {}} {
			got := mustLookup(t, r, in.Name).Route(t.Context(), Request{JobID: 1}, addrs)
			if got != (Result{Code: CodeFail}) {
				t.Errorf("%s(%v) = %+v", in.Name, addrs, got)
			}
		}
	}
}
