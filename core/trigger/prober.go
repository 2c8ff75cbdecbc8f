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

// newProber is NewProber for a layout: under Layout342 a probe that got no
// usable answer reports what the 3.4.2 admin's routes report for the
// exception its client threw — FAILOVER the exception's message
// (ExecutorRouteFailover: e.getMessage()), BUSYOVER the exception itself
// (ExecutorRouteBusyover: ""+e), e.g. "Http Request Error (Connection
// refused). for url : http://h:9999/beat".
func newProber(c ProbeClient, l Layout) route.Prober {
	return prober{c: c, layout: l}
}

type prober struct {
	c      ProbeClient
	layout Layout
}

func (p prober) Beat(ctx context.Context, address string) (route.Reply, error) {
	r := p.c.Beat(ctx, address)
	return p.reply(r, ""), nil
}

func (p prober) IdleBeat(ctx context.Context, address string, jobID int) (route.Reply, error) {
	r := p.c.IdleBeat(ctx, address, api.IdleBeatParam{JobID: jobID})
	return p.reply(r, javaRuntimeException), nil
}

func (p prober) reply(r api.ReturnT[string], class string) route.Reply {
	if p.layout == Layout342 && r.Code != api.CodeSuccess && r.Msg != nil {
		if e, ok := exception342(*r.Msg); ok {
			msg := class + e
			return route.Reply{Code: r.Code, Msg: &msg}
		}
	}
	return route.Reply{Code: r.Code, Msg: r.Msg}
}
