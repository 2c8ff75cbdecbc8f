package route

import (
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// bundleText returns the i18n lookup of one bundle ("en" or "zh_CN"),
// limited to the keys this package uses. Values: routing.md §1 table and
// scheduler.md §12 (jobconf_beat, jobconf_idleBeat).
func bundleText(t testing.TB, lang string) func(string) string {
	bundles := map[string]map[string]string{
		"en": {
			"jobconf_beat":                 "Heartbeats",
			"jobconf_idleBeat":             "Idle check",
			"jobconf_route_first":          "First",
			"jobconf_route_last":           "Last",
			"jobconf_route_round":          "Round",
			"jobconf_route_random":         "Random",
			"jobconf_route_consistenthash": "Consistent Hash",
			"jobconf_route_lfu":            "Least Frequently Used",
			"jobconf_route_lru":            "Least Recently Used",
			"jobconf_route_failover":       "Failover",
			"jobconf_route_busyover":       "Busyover",
			"jobconf_route_shard":          "Sharding Broadcast",
		},
		"zh_CN": {
			"jobconf_beat":                 "心跳检测",
			"jobconf_idleBeat":             "空闲检测",
			"jobconf_route_first":          "第一个",
			"jobconf_route_last":           "最后一个",
			"jobconf_route_round":          "轮询",
			"jobconf_route_random":         "随机",
			"jobconf_route_consistenthash": "一致性HASH",
			"jobconf_route_lfu":            "最不经常使用",
			"jobconf_route_lru":            "最近最久未使用",
			"jobconf_route_failover":       "故障转移",
			"jobconf_route_busyover":       "忙碌转移",
			"jobconf_route_shard":          "分片广播",
		},
	}
	b, ok := bundles[lang]
	if !ok {
		t.Fatalf("no test bundle %q", lang)
	}
	return func(key string) string {
		v, ok := b[key]
		if !ok {
			t.Errorf("i18n key %q missing from test bundle %s", key, lang)
		}
		return v
	}
}

// fakeClock is a settable clock for the 24 h reset.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// scriptRand returns scripted values in order, failing the test when a
// value is out of range or the script runs out.
type scriptRand struct {
	t    testing.TB
	vals []int
	asks []int // the n of every call, for assertions
}

func (r *scriptRand) IntN(n int) int {
	r.asks = append(r.asks, n)
	if len(r.vals) == 0 {
		r.t.Fatalf("scriptRand exhausted (IntN(%d))", n)
	}
	v := r.vals[0]
	r.vals = r.vals[1:]
	if v < 0 || v >= n {
		r.t.Fatalf("scripted value %d out of [0,%d)", v, n)
	}
	return v
}

// mustLookup fetches a strategy or fails.
func mustLookup(t testing.TB, r *Registry, name string) Strategy {
	t.Helper()
	s, ok := r.Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) failed", name)
	}
	return s
}

// countPicks routes n times for one job and tallies the addresses.
func countPicks(t testing.TB, s Strategy, jobID, n int, addrs []string) map[string]int {
	t.Helper()
	got := make(map[string]int)
	for range n {
		res := s.Route(t.Context(), Request{JobID: jobID}, addrs)
		if !res.OK() || res.Msg != "" {
			t.Fatalf("Route = %+v, want success without msg", res)
		}
		got[res.Address]++
	}
	return got
}
