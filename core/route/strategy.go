package route

import "context"

// Result codes, as in Java's ReturnT.
const (
	CodeSuccess = 200
	CodeFail    = 500
)

// Request carries what a strategy needs to know about the trigger.
type Request struct {
	// JobID is TriggerParam.jobId: the key of ROUND/LFU/LRU state, the
	// CONSISTENT_HASH job point and the BUSYOVER idleBeat body.
	JobID int
	// BroadcastIndex is the shard index; only SHARDING_BROADCAST reads it.
	BroadcastIndex int
}

// Result mirrors Java's ReturnT<String> as returned by a router.
type Result struct {
	// Code is CodeSuccess when Address is usable, else CodeFail.
	Code int
	// Msg is the route message copied into trigger_msg followed by
	// "<br><br>" (scheduler.md §6). Only FAILOVER and BUSYOVER set it; ""
	// stands for Java's null and must not be printed.
	Msg string
	// Address is the chosen executor address (Java's content).
	Address string
}

// OK reports whether the route picked an address.
func (r Result) OK() bool { return r.Code == CodeSuccess }

// Strategy picks an executor address for one trigger. Implementations are
// safe for concurrent use.
type Strategy interface {
	Route(ctx context.Context, req Request, addresses []string) Result
}

// emptyList is the answer for an empty registry list; see the package doc.
func emptyList() Result { return Result{Code: CodeFail} }
