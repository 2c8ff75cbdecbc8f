package route

import "context"

// first routes to the first registry address (routing.md §1.1).
type first struct{}

func (first) Route(_ context.Context, _ Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	return Result{Code: CodeSuccess, Address: addresses[0]}
}

// last routes to the last registry address (routing.md §1.1).
type last struct{}

func (last) Route(_ context.Context, _ Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	return Result{Code: CodeSuccess, Address: addresses[len(addresses)-1]}
}
