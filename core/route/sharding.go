package route

import "context"

// sharding serves SHARDING_BROADCAST: the trigger flow fans out and asks
// for each shard's address (routing.md §1.8; see the package doc).
type sharding struct{}

// Route returns addresses[req.BroadcastIndex], or addresses[0] when the
// index is out of range, e.g. a shard retry after the list shrank.
func (sharding) Route(_ context.Context, req Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	i := req.BroadcastIndex
	if i < 0 || i >= len(addresses) {
		i = 0
	}
	return Result{Code: CodeSuccess, Address: addresses[i]}
}
