package thread

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// verdict is what the executors told of a row: the address that has its
// run's log, or why nobody can tell (unknown), or neither — it was never
// sent.
type verdict struct {
	address, unknown string
}

// ask asks the executors of the row's group whether one has the run's log
// (/log with the row's id and trigger time, as the console reads it). An
// executor without it answers "logFile not exists" (Java, 2.x and 3.x) or
// pyxxl's text, as the sweeper reads them (noLog). When none has it, each
// is asked whether it holds a run of the job (/idleBeat): a Java executor
// creates a run's log file when the run starts, so a /run queued behind a
// long run of the same job has none yet — while one is busy with the job
// nobody can tell.
func (w *Settler) ask(ctx context.Context, l schema.JobLog, at time.Time) (verdict, error) {
	addresses, err := w.addresses(ctx, l.JobGroup)
	if err != nil {
		return verdict{}, err
	}
	if len(addresses) == 0 {
		return verdict{unknown: "no executor is registered in its group to ask"}, nil
	}
	var silent []string
	for _, a := range addresses {
		r := w.cfg.Executor.Log(ctx, a, api.LogParam{LogDateTim: at.UnixMilli(), LogID: l.ID, FromLineNum: 1})
		switch {
		case r.Code == api.CodeSuccess && r.Content != nil && !noLog(r.Content.LogContent):
			return verdict{address: a}, nil
		case r.Code != api.CodeSuccess:
			silent = append(silent, fmt.Sprintf("%s (/log: %s)", a, r.MsgText()))
		}
	}
	if len(silent) > 0 {
		return verdict{unknown: "executor " + strings.Join(silent, ", ") + " did not answer"}, nil
	}
	var busy []string
	for _, a := range addresses {
		if r := w.cfg.Executor.IdleBeat(ctx, a, api.IdleBeatParam{JobID: l.JobID}); r.Code != api.CodeSuccess {
			busy = append(busy, fmt.Sprintf("%s (/idleBeat: %s)", a, r.MsgText()))
		}
	}
	if len(busy) > 0 {
		return verdict{unknown: "executor " + strings.Join(busy, ", ") + " may hold it queued behind a run of the job"}, nil
	}
	return verdict{}, nil
}

// addresses are the executors the group lists now (its registered ones,
// or its manual list), without repeats.
func (w *Settler) addresses(ctx context.Context, group int) ([]string, error) {
	g, err := w.cfg.Store.GroupLoad(ctx, group)
	if errors.Is(err, schema.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, a := range strings.Split(deref(g.AddressList), ",") {
		if a = strings.TrimSpace(a); a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// plannedFire tells a planned fire of the job's schedule from any other
// trigger by its trigger time: ours writes a fire's planned second, or the
// moment it left when that was later (up to trigger.MisfireAfter: later
// fires misfire), and Java the moment its pool took it, a few milliseconds
// past the second. So a row is a planned fire when a fire time of the
// job's schedule lies within MisfireAfter before its trigger time: for
// CRON the first fire after that window's start, in the job's zone; for
// FIX_RATE the chain of fires through the job's next fire time (a rate of
// MisfireAfter or less makes every moment one). A manual or API trigger in
// such a window of its job counts as planned; one of a job without a
// schedule never does.
func (w *Settler) plannedFire(job schema.JobInfo, at time.Time) bool {
	conf := deref(job.ScheduleConf)
	switch job.ScheduleType {
	case cron.TypeCron:
		loc := w.cfg.Loc
		if job.ScheduleTimezone != nil && *job.ScheduleTimezone != "" {
			var err error
			if loc, err = w.zones.Load(*job.ScheduleTimezone, w.cfg.Loc); err != nil {
				return false
			}
		}
		next, ok, err := cron.NextTimeWith(w.cfg.FixRate, cron.TypeCron, conf, at.Add(-trigger.MisfireAfter), loc)
		return err == nil && ok && !next.After(at)
	case cron.TypeFixRate:
		n, err := cron.ParseFixRate(conf)
		if err != nil || n <= 0 {
			return false
		}
		rate := int64(n) * 1000
		if rate <= trigger.MisfireAfter.Milliseconds() {
			return true
		}
		if job.TriggerNextTime <= 0 {
			return false
		}
		off := ((at.UnixMilli()-job.TriggerNextTime)%rate + rate) % rate
		return off < trigger.MisfireAfter.Milliseconds()
	}
	return false
}
