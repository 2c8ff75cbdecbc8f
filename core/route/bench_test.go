package route

import (
	"fmt"
	"testing"
)

func BenchmarkStrategies(b *testing.B) {
	addrs := make([]string, 10)
	for i := range addrs {
		addrs[i] = fmt.Sprintf("http://10.0.0.%d:9999/", i+1)
	}
	// A busy first executor makes FAILOVER/BUSYOVER build a two-entry report.
	busy := Reply{Code: CodeFail, Msg: strp("job thread is running or has trigger queue.")}
	r := NewRegistry(Config{
		Prober: &fakeProber{replies: map[string]Reply{addrs[0]: busy}},
		Text:   bundleText(b, "en"),
	})
	for _, in := range Strategies() {
		s := mustLookup(b, r, in.Name)
		b.Run(in.Name, func(b *testing.B) {
			ctx := b.Context()
			i := 0
			for b.Loop() {
				i++
				res := s.Route(ctx, Request{JobID: i % 100, BroadcastIndex: i % len(addrs)}, addrs)
				if !res.OK() {
					b.Fatalf("Route = %+v", res)
				}
			}
		})
	}
}
