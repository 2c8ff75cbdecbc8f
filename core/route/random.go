package route

import "context"

// random routes to a uniformly random address from one shared source
// (routing.md §1.1).
type random struct {
	rnd Rand
}

func (s random) Route(_ context.Context, _ Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	return Result{Code: CodeSuccess, Address: addresses[s.rnd.IntN(len(addresses))]}
}
