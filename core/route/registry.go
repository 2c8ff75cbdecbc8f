package route

import (
	"time"
)

// Config holds a Registry's dependencies. Every field is optional.
type Config struct {
	// Prober probes executors for FAILOVER and BUSYOVER. Without it those
	// strategies report every address as failed.
	Prober Prober
	// Text resolves i18n keys (jobconf_beat, jobconf_idleBeat, titles) in
	// the configured bundle. Defaults to returning the key.
	Text func(key string) string
	// Now is the clock of the 24 h state reset. Defaults to time.Now.
	Now func() time.Time
	// Rand is the random source. Defaults to math/rand/v2's global source.
	Rand Rand
}

// Registry owns one instance of every strategy. ROUND, LFU and LRU keep
// per-job state in it, so create one per process (routing.md §1.9).
type Registry struct {
	text       func(key string) string
	strategies map[string]Strategy
}

// NewRegistry builds the strategies with their dependencies.
func NewRegistry(cfg Config) *Registry {
	text := cfg.Text
	if text == nil {
		text = func(key string) string { return key }
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	var rnd Rand = globalRand{}
	if cfg.Rand != nil {
		rnd = &lockedRand{src: cfg.Rand}
	}
	return &Registry{
		text: text,
		strategies: map[string]Strategy{
			NameFirst:               first{},
			NameLast:                last{},
			NameRound:               newRound(now, rnd),
			NameRandom:              random{rnd: rnd},
			NameConsistentHash:      consistentHash{},
			NameLeastFrequentlyUsed: newLeastFrequent(now, rnd),
			NameLeastRecentlyUsed:   newLeastRecent(now),
			NameFailover:            probeOver{prober: cfg.Prober, text: text, labelKey: "jobconf_beat", probe: beatProbe},
			NameBusyover:            probeOver{prober: cfg.Prober, text: text, labelKey: "jobconf_idleBeat", probe: idleBeatProbe},
			NameShardingBroadcast:   sharding{},
		},
	}
}

// Lookup returns the strategy stored under an exact, case-sensitive name;
// ok is false for an unknown name, which the caller must report.
func (r *Registry) Lookup(name string) (Strategy, bool) {
	s, ok := r.strategies[name]
	return s, ok
}

// Title returns the display title of a strategy name in the configured
// bundle, as printed in trigger_msg (scheduler.md §6); ok is false for an
// unknown name.
func (r *Registry) Title(name string) (string, bool) {
	in, ok := Describe(name)
	if !ok {
		return "", false
	}
	return r.text(in.TitleKey), true
}
