package trigger

import (
	"context"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// ProbeClient is the part of the executor client FAILOVER and BUSYOVER use.
type ProbeClient interface {
	Beat(ctx context.Context, address string) api.ReturnT[string]
	IdleBeat(ctx context.Context, address string, p api.IdleBeatParam) api.ReturnT[string]
}

// NewProber adapts the executor client to route.Prober. The client turns
// every failure into a 500 ReturnT with Java's remoting text, which the
// probe report must show, so the adapter never returns an error.
func NewProber(c ProbeClient) route.Prober { return prober{c: c} }

type prober struct{ c ProbeClient }

func (p prober) Beat(ctx context.Context, address string) (route.Reply, error) {
	r := p.c.Beat(ctx, address)
	return route.Reply{Code: r.Code, Msg: r.Msg}, nil
}

func (p prober) IdleBeat(ctx context.Context, address string, jobID int) (route.Reply, error) {
	r := p.c.IdleBeat(ctx, address, api.IdleBeatParam{JobID: jobID})
	return route.Reply{Code: r.Code, Msg: r.Msg}, nil
}
