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

// plan fills p for req on its reloaded job.
func (f *Flow) plan(ctx context.Context, req Request, job schema.JobInfo, p *plan) error {
	*p = plan{typ: req.Type, job: job, param: job.ExecutorParam, failRetry: req.FailRetryCount}
	if req.ExecutorParam != nil {
		p.param = req.ExecutorParam
	}
	if p.failRetry < 0 {
		p.failRetry = job.ExecutorFailRetryCount
	}
	group, registry, err := f.groups.load(ctx, job.JobGroup)
	switch {
	case errors.Is(err, schema.ErrNotFound):
		p.groupMissing = true
	case err != nil:
		return fmt.Errorf("load group %d: %w", job.JobGroup, err)
	default:
		p.addressType = group.AddressType
		p.registry = registry
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
	p.blockTitle = f.texts.Text(blockKey(job.ExecutorBlockStrategy))
	return nil
}

// fansOut tells whether the trigger writes one row per registered address
// (step 7): a broadcast to a known, non-empty list, with no accepted
// sharding param.
func (p *plan) fansOut() bool {
	return p.override == nil && p.broadcast && len(p.registry) > 0 && !p.groupMissing
}

// shardCount is the number of log rows to write.
func (p *plan) shardCount() int {
	if p.fansOut() {
		return len(p.registry)
	}
	return 1
}

// shard is the (index, total) of row i < shardCount.
func (p *plan) shard(i int) shard {
	switch {
	case p.override != nil:
		return *p.override
	case p.fansOut():
		return shard{index: i, total: len(p.registry)}
	}
	return shard{index: 0, total: 1}
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

// blockKey is the i18n key of the block strategy whose title trigger_msg
// shows: the stored name's, SERIAL_EXECUTION's when unknown (routing.md
// §2). The raw value still goes to the executor.
func blockKey(v *string) string {
	if v != nil {
		switch *v {
		case "DISCARD_LATER":
			return "jobconf_block_DISCARD_LATER"
		case "COVER_EARLY":
			return "jobconf_block_COVER_EARLY"
		}
	}
	return "jobconf_block_SERIAL_EXECUTION"
}
