package trigger

import "time"

// InFlightBound is how long, at most, a live admin of ours keeps a log row
// it wrote at trigger_code 0 before storing the trigger's result, with
// callLimit the executor client's limit on one call. A row is written at
// most PrepareLead before its trigger_time and released to the senders
// then; a sender takes it within MisfireAfter on an admin that keeps its
// schedule (one that is later misfires its planned fires); routing it
// probes at most a few executors (FAILOVER, BUSYOVER) and its /run is one
// call, each within callLimit (four calls are counted); and its result is
// written within finishTimeout, or held through a database outage for up
// to outageHold before the recorder gives up. A Java admin writes its row
// when the trigger leaves its queue and stores the result after one /run
// of 3 s (after one probe per address for FAILOVER and BUSYOVER), far
// inside this bound. A row older than this without any result was left by
// an admin that stopped (core/thread's Settler).
func InFlightBound(callLimit time.Duration) time.Duration {
	return MisfireAfter + 4*callLimit + finishTimeout + outageHold
}
