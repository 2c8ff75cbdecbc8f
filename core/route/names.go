package route

// Strategy names as stored in xxl_job_info.executor_route_strategy; they are
// matched exactly and case-sensitively (routing.md intro).
const (
	NameFirst               = "FIRST"
	NameLast                = "LAST"
	NameRound               = "ROUND"
	NameRandom              = "RANDOM"
	NameConsistentHash      = "CONSISTENT_HASH"
	NameLeastFrequentlyUsed = "LEAST_FREQUENTLY_USED"
	NameLeastRecentlyUsed   = "LEAST_RECENTLY_USED"
	NameFailover            = "FAILOVER"
	NameBusyover            = "BUSYOVER"
	NameShardingBroadcast   = "SHARDING_BROADCAST"
)

// Info describes one strategy for listings and trigger messages.
type Info struct {
	Name string
	// TitleKey is the i18n bundle key of the display title.
	TitleKey string
	// Broadcast is true only for SHARDING_BROADCAST: the caller fans out
	// (see the package doc).
	Broadcast bool
}

// Strategies lists all strategies in Java enum order, which is also the
// console's order (routing.md §1 table).
func Strategies() []Info {
	return []Info{
		{Name: NameFirst, TitleKey: "jobconf_route_first"},
		{Name: NameLast, TitleKey: "jobconf_route_last"},
		{Name: NameRound, TitleKey: "jobconf_route_round"},
		{Name: NameRandom, TitleKey: "jobconf_route_random"},
		{Name: NameConsistentHash, TitleKey: "jobconf_route_consistenthash"},
		{Name: NameLeastFrequentlyUsed, TitleKey: "jobconf_route_lfu"},
		{Name: NameLeastRecentlyUsed, TitleKey: "jobconf_route_lru"},
		{Name: NameFailover, TitleKey: "jobconf_route_failover"},
		{Name: NameBusyover, TitleKey: "jobconf_route_busyover"},
		{Name: NameShardingBroadcast, TitleKey: "jobconf_route_shard", Broadcast: true},
	}
}

// Describe returns the Info of a strategy name; ok is false for an unknown
// name.
func Describe(name string) (Info, bool) {
	for _, in := range Strategies() {
		if in.Name == name {
			return in, true
		}
	}
	return Info{}, false
}
