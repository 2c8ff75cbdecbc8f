package thread

// Callback item results as metrics count them.
const (
	CallbackFinished = "finished" // the result was stored
	CallbackRepeated = "repeated" // the log already had a result
	CallbackUnknown  = "unknown"  // no such log
	CallbackFailed   = "failed"   // not stored (database); the executor retries
)

// CallbackObserver sees the items of each /api/callback POST (metrics).
type CallbackObserver interface {
	CallbackItems(result string, n int)
}

// GroupExecutors is one automatic group's count of live executors.
type GroupExecutors struct {
	GroupID   int
	AppName   string
	Executors int
}

// RegistryObserver sees the live executors of every automatic group after
// each monitor pass (metrics).
type RegistryObserver interface {
	Executors(groups []GroupExecutors)
}
