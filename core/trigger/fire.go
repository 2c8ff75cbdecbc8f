package trigger

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// finishTimeout bounds writing a trigger's result after /run. It runs even
// when the trigger's context was cancelled meanwhile (shutdown), because a
// row left at trigger_code 0 would count as running forever.
const finishTimeout = 10 * time.Second

// outcome is a fired trigger's finished log row.
type outcome struct {
	row  schema.JobLog
	typ  Type
	code int
	// pending is the durable trigger's claim (0: not durable); abandoned
	// marks a durable row that was not sent and whose result is not the
	// flow's to store (see send).
	pending   int64
	abandoned bool
	// runMsg is the executor's answer to a failed /run (or the client's
	// error), for the warning line.
	runMsg string
}

// fire is the second stage of processTrigger for one prepared row: the
// route, the /run call and the trigger_msg (scheduler.md §5, §5.1, §6).
func (f *Flow) fire(ctx context.Context, fr *firing) outcome {
	p, sh := fr.plan, fr.shard
	param := p.triggerParam(fr.logID, fr.at, sh)
	// What trigger_msg shows, as values: the message is built from it
	// only when the job's cached text is not for the same (msgCache).
	k := msgKey{registry: p.registry, msgFields: msgFields{
		typ:         p.typ,
		admin:       f.admin,
		addressType: p.addressType,
		registryNil: p.registry == nil,
		routeTitle:  f.routeTitle(p),
		blockTitle:  p.blockTitle,
		timeout:     p.job.ExecutorTimeout,
		failRetry:   p.failRetry,
	}}
	k.setTexts(p.job.ExecutorHandler, p.param)
	if p.broadcast {
		k.shard, k.hasShard = sh, true
	}
	address, routeMsg := f.pickAddress(ctx, p, sh)
	k.routeMsg = routeMsg
	code := api.CodeFail
	var runMsg string
	if address != nil {
		r, sent := f.send(ctx, fr, *address, param)
		if !sent {
			return outcome{typ: p.typ, abandoned: true}
		}
		code = r.Code
		k.setRun(*address, r.Code, r.Msg)
		if code != api.CodeSuccess {
			runMsg = clipBytes(r.MsgText(), 300)
		}
	}
	row := f.logRow(p, &fr.at, sh)
	row.ID, row.TriggerCode = fr.logID, code
	if row.TriggerMsg = f.msgs.get(p.job.ID, &k); row.TriggerMsg == nil {
		m := k.message()
		row.TriggerMsg = f.msgs.put(p.job.ID, &k, clipBytes(m.renderAs(f.layout, f.texts), textColumnBytes))
	}
	row.ExecutorAddress = clipPtr(address, 255)
	return outcome{typ: p.typ, code: code, row: row, pending: fr.pending, runMsg: runMsg}
}

// record is the last stage: the finished rows' results written (one
// statement per 100 rows; prepare wrote the rest of each row) and each
// outcome reported. A failed trigger gets a warning
// line of its own, up to a few per second; the rest are counted in the
// pools' summary line.
func (f *Flow) record(ctx context.Context, outs []outcome) error {
	outs = withoutAbandoned(outs)
	if len(outs) == 0 {
		return nil
	}
	rows := make([]schema.JobLog, len(outs))
	for i, o := range outs {
		rows[i] = o.row
	}
	outs, err := f.storeResults(ctx, outs, rows)
	if err != nil {
		return err
	}
	f.stats.add(len(rows), statementsFor(len(rows)))
	for _, o := range outs {
		result := ResultSuccess
		if o.code != api.CodeSuccess {
			result = ResultFail
		}
		f.observe(o.typ, result)
		ev, warn := f.log.Debug(), o.code != api.CodeSuccess && f.tally.failed(o.row.JobID)
		if warn {
			ev = f.log.Warn()
		}
		// job_id first, as before run_msg was added: log readers (and the
		// upgrade test) match the line's start.
		ev = ev.Int("job_id", o.row.JobID).Int64("log_id", o.row.ID).Str("trigger_type", string(o.typ)).
			Int("trigger_code", o.code).Str("executor_address", deref(o.row.ExecutorAddress))
		if warn {
			ev = ev.Str("run_msg", o.runMsg)
		}
		ev.Msg("trigger finished")
	}
	return nil
}

// pickAddress is step 5: the executor address (nil for none) and the route
// message ("" for none).
func (f *Flow) pickAddress(ctx context.Context, p *plan, sh shard) (*string, string) {
	switch {
	case p.fixed != "":
		return &p.fixed, ""
	case p.groupMissing:
		return nil, "executor group [" + strconv.Itoa(p.job.JobGroup) + "] not found"
	case p.route == nil:
		return nil, fmt.Sprintf("route strategy [%s] is not valid", escapeText(p.routeName))
	case len(p.registry) == 0:
		return nil, f.texts.Text("jobconf_trigger_address_empty")
	case p.broadcast:
		// list[index], or list[0] when the list shrank since (a shard
		// retry); no route message.
		i := sh.index
		if i < 0 || i >= len(p.registry) {
			i = 0
		}
		return &p.registry[i], ""
	}
	res := p.route.Route(ctx, route.Request{JobID: p.job.ID, BroadcastIndex: sh.index}, p.registry)
	if !res.OK() {
		return nil, res.Msg
	}
	// The registry's own copy of the address when it is one (always, for
	// the strategies of route): a pointer to the result's would be an
	// allocation per trigger.
	for i := range p.registry {
		if p.registry[i] == res.Address {
			return &p.registry[i], res.Msg
		}
	}
	address := res.Address
	return &address, res.Msg
}

// triggerParam is the /run body (executor-protocol.md §3.4); column values
// go out raw.
func (p *plan) triggerParam(logID int64, now time.Time, sh shard) api.TriggerParam {
	var glueUpdated int64
	if p.job.GlueUpdatetime != nil {
		glueUpdated = p.job.GlueUpdatetime.UnixMilli()
	}
	return api.TriggerParam{
		JobID:                 p.job.ID,
		ExecutorHandler:       p.job.ExecutorHandler,
		ExecutorParams:        p.param,
		ExecutorBlockStrategy: p.job.ExecutorBlockStrategy,
		ExecutorTimeout:       p.job.ExecutorTimeout,
		LogID:                 logID,
		LogDateTime:           now.UnixMilli(),
		GlueType:              p.job.GlueType,
		GlueSource:            p.job.GlueSource,
		GlueUpdatetime:        glueUpdated,
		BroadcastIndex:        sh.index,
		BroadcastTotal:        sh.total,
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
