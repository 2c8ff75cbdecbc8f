package galera

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// TestPlanFires checks how fires get the planned second their admin
// decided, in order: a fire held up through a cluster stall keeps its own
// second, a late ring tick's pair covers both seconds, a second fire of
// one decided second is left without (a duplicate), and senders without
// records are left alone.
func TestPlanFires(t *testing.T) {
	base := time.Unix(1_800_000_000, 0)
	fire := func(admin string, job int, sec, ms int) cluster.Fire {
		at := base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)
		return cluster.Fire{JobID: job, Admin: admin, Trigger: at, At: at.Add(3 * time.Millisecond)}
	}
	s := func(sec int) int64 { return base.Unix() + int64(sec) }
	decided := map[string][]int64{
		"a": {s(0), s(1), s(4)},
		"b": {s(2), s(3)},
	}
	cases := []struct {
		name  string
		fires []cluster.Fire
		want  []int64
	}{
		{"on time", []cluster.Fire{fire("a", 1, 0, 5), fire("a", 1, 1, 5), fire("b", 1, 2, 5), fire("b", 1, 3, 5), fire("a", 1, 4, 5)},
			[]int64{s(0), s(1), s(2), s(3), s(4)}},
		// b's seconds 2 and 3 were lost; a's fire of second 1 was held up
		// until 3.4 s by a stall: it still stands for second 1.
		{"held up through a stall", []cluster.Fire{fire("a", 1, 0, 5), fire("a", 1, 3, 400), fire("a", 1, 4, 5)},
			[]int64{s(0), s(1), s(4)}},
		{"late tick fires two seconds at once", []cluster.Fire{fire("a", 1, 1, 5), fire("a", 1, 1, 9)},
			[]int64{s(0), s(1)}},
		{"a decided second fired twice", []cluster.Fire{fire("a", 1, 0, 5), fire("a", 1, 1, 5), fire("a", 1, 1, 7)},
			[]int64{s(0), s(1), 0}},
		// Without a fire of its second 1 yet, a's fire at 2 s is that one,
		// late; with it, a's fire at 2 s is a second fire of b's second 2.
		{"a late fire of its own second", []cluster.Fire{fire("b", 1, 2, 5), fire("a", 1, 2, 6)},
			[]int64{s(2), s(1)}},
		{"another admin fires a second it did not decide", []cluster.Fire{fire("a", 1, 0, 5), fire("a", 1, 1, 5), fire("b", 1, 2, 5), fire("a", 1, 2, 6)},
			[]int64{s(0), s(1), s(2), 0}},
		{"no records", []cluster.Fire{fire("java", 1, 0, 5)}, []int64{0}},
		{"held up longer than a pool could", []cluster.Fire{fire("a", 1, 40, 0)}, []int64{0}},
	}
	for _, c := range cases {
		got := PlanFires(c.fires, decided)
		for i, f := range got {
			if f.Planned != c.want[i] {
				t.Errorf("%s: fire %d planned %d, want %d", c.name, i, f.Planned-base.Unix(), c.want[i]-base.Unix())
			}
		}
	}
}
