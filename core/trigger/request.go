package trigger

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
}

// Submitter is the one door every trigger source goes through: the schedule
// loop and ring, child jobs, fail retries, the console's "run once" and the
// job API. Submit queues the trigger and must not block; *Pools implements it.
type Submitter interface {
	Submit(req Request) error
}
