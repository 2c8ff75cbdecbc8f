package trigger

// Trigger results as metrics count them.
const (
	ResultSuccess  = "success"  // the executor accepted the trigger (code 200)
	ResultFail     = "fail"     // no address, a failed /run, or any other failure
	ResultRejected = "rejected" // a full pool refused it; a failed row records it
	ResultMisfired = "misfired" // a schedule fire over 5 s late (read late by the scheduler, or not sent by the pool in time), skipped (DO_NOTHING)
)

// Observer sees every trigger's outcome (metrics); nil means none.
type Observer interface {
	Triggered(typ Type, result string)
}
