package trigger

import "time"

// Request is one call of the trigger flow (scheduler.md §5 inputs).
type Request struct {
	JobID int
	Type  Type
	// FailRetryCount < 0 means the job's executor_fail_retry_count (Java
	// callers pass -1); a retry passes the failed log's count minus one.
	FailRetryCount int
	// ShardingParam is an "index/total" override, "" for none; a retry
	// passes the failed log's executor_sharding_param.
	ShardingParam string
	// ExecutorParam overrides the job's executor_param; nil keeps it.
	ExecutorParam *string
	// AddressList overrides the group's address list ("run once"); blank
	// for none.
	AddressList string
	// At is a schedule fire's planned time; zero means now. A request
	// submitted up to PrepareLead before At is prepared ahead (its job
	// reloaded, its log row written with trigger_time At) and its /run
	// leaves at At.
	At time.Time
	// Misfire is the job's misfire strategy as the schedule planned the
	// fire, "" for triggers that never misfire (everything but schedule
	// fires). A fire with a strategy that cannot leave within MisfireAfter
	// of At is handled by it (FIRE_ONCE_NOW fires once now, anything else
	// skips it) instead of going out late.
	Misfire string
	// Pending is the claim of the durable record of a retry or child
	// trigger (see Durable), 0 for none: the flow moves its pending row
	// along as it goes, and stops when the claim no longer holds it.
	Pending int64
}

// PrepareLead is how long before its planned second a schedule fire should
// be submitted (with At set) so that its job is loaded and its log row
// written when the second begins, and the /run calls leave at the
// boundary instead of over the following half second.
const PrepareLead = 400 * time.Millisecond

// Submitter is the one door every trigger source goes through: the schedule
// loop and ring, child jobs, fail retries, the console's "run once" and the
// job API. Submit queues the trigger and must not block; *Pools implements it.
type Submitter interface {
	Submit(req Request) error
}
