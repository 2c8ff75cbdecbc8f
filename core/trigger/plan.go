package trigger

import (
	"context"
	"errors"
	"fmt"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// plan is what every shard of one trigger shares (scheduler.md §5 steps
// 1–6).
type plan struct {
	typ         Type
	job         schema.JobInfo
	param       *string // effective executor_param
	failRetry   int
	addressType int
	registry    []string // nil: no list
	// groupMissing is set when the job's group row does not exist.
	groupMissing bool
	routeName    string
	route        route.Strategy // nil for an unknown name
	broadcast    bool           // route is SHARDING_BROADCAST
	override     *shard         // accepted sharding param
	blockTitle   string
	pending      int64  // Request.Pending
	fixed        string // the one address a recovered row goes to (Resume)
}

func (f *Flow) plan(ctx context.Context, req Request, job schema.JobInfo) (*plan, error) {
	p := &plan{typ: req.Type, job: job, param: job.ExecutorParam, failRetry: req.FailRetryCount}
	if req.ExecutorParam != nil {
		p.param = req.ExecutorParam
	}
	if p.failRetry < 0 {
		p.failRetry = job.ExecutorFailRetryCount
	}
	group, err := f.groups.load(ctx, job.JobGroup)
	switch {
	case errors.Is(err, schema.ErrNotFound):
		p.groupMissing = true
	case err != nil:
		return nil, fmt.Errorf("load group %d: %w", job.JobGroup, err)
	default:
		p.addressType = group.AddressType
		p.registry = registryList(group.AddressList)
	}
	if list := javaTrim(req.AddressList); list != "" && !p.groupMissing {
		// "run once" with typed addresses: the group counts as manual for
		// this trigger only (step 4).
		p.addressType = 1
		p.registry = registryList(&list)
	}
	if job.ExecutorRouteStrategy != nil {
		p.routeName = *job.ExecutorRouteStrategy
		p.route, _ = f.routes.Lookup(p.routeName)
		if info, ok := route.Describe(p.routeName); ok {
			p.broadcast = info.Broadcast
		}
	}
	if sh, ok := parseSharding(req.ShardingParam); ok {
		p.override = &sh
	}
	p.blockTitle = f.texts.Text("jobconf_block_" + blockName(job.ExecutorBlockStrategy))
	return p, nil
}

// shards lists the (index, total) of every log row to write (step 7).
func (p *plan) shards() []shard {
	if p.override != nil {
		return []shard{*p.override}
	}
	if p.broadcast && len(p.registry) > 0 && !p.groupMissing {
		out := make([]shard, len(p.registry))
		for i := range out {
			out[i] = shard{index: i, total: len(p.registry)}
		}
		return out
	}
	return []shard{{index: 0, total: 1}}
}

// routeTitle is the route's title for trigger_msg; an unknown name is
// shown as stored (Java would fail with a null-pointer error).
func (f *Flow) routeTitle(p *plan) string {
	if info, ok := route.Describe(p.routeName); ok {
		return f.texts.Text(info.TitleKey)
	}
	if p.job.ExecutorRouteStrategy == nil {
		return "null"
	}
	return p.routeName
}

// blockName is the block strategy whose title trigger_msg shows: the
// stored name, SERIAL_EXECUTION when unknown (routing.md §2). The raw value
// still goes to the executor.
func blockName(v *string) string {
	if v != nil {
		switch *v {
		case "SERIAL_EXECUTION", "DISCARD_LATER", "COVER_EARLY":
			return *v
		}
	}
	return "SERIAL_EXECUTION"
}
