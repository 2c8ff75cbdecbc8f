package schedule

import (
	"time"

	"github.com/rs/zerolog"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// preReadMs is PRE_READ_MS: how far ahead a round reads, and the lateness
// beyond which a fire counts as misfired (scheduler.md §3).
const preReadMs = 5000

// Misfire strategies (xxl_job_info.misfire_strategy); anything else is
// DO_NOTHING, as MisfireStrategyEnum.match with that default.
const (
	misfireFireOnceNow = "FIRE_ONCE_NOW"
)

// action is what a round decided for one planned fire: submit it as soon as
// the round has committed, or push it into the ring.
type action struct {
	entry
	typ  trigger.Type
	ring bool
}

// planner applies the three cases of scheduler.md §3.2 step 4 to a job.
type planner struct {
	loc     *time.Location
	fixRate cron.FixRate
	clock   clock.Clock
	log     zerolog.Logger
}

// plan decides one pre-read job read at nowMs, updating its trigger
// fields in place, and returns the fires it produced (at most two).
func (p planner) plan(j *schema.JobInfo, nowMs int64) []action {
	var out []action
	switch next := j.TriggerNextTime; {
	case misfired(next, nowMs): // A: misfired by more than 5 s
		p.log.Warn().Int("jobId", j.ID).Int64("plannedMs", next).Str("misfireStrategy", j.MisfireStrategy).
			Msg("schedule misfire")
		if j.MisfireStrategy == misfireFireOnceNow {
			out = append(out, action{entry: entry{j.ID, next, ""}, typ: trigger.TypeMisfire})
		}
		p.refresh(j, p.clock.Now().UnixMilli())
	case nowMs > next: // B: late by less than 5 s, fire at once
		out = append(out, action{entry: entry{j.ID, next, misfireOf(j)}, typ: trigger.TypeCron})
		p.refresh(j, p.clock.Now().UnixMilli())
		if j.TriggerStatus == 1 && nowMs+preReadMs > j.TriggerNextTime {
			out = append(out, action{entry: entry{j.ID, j.TriggerNextTime, misfireOf(j)}, typ: trigger.TypeCron, ring: true})
			p.refresh(j, j.TriggerNextTime)
		}
	default: // C: due within 5 s, wait in the ring
		out = append(out, action{entry: entry{j.ID, next, misfireOf(j)}, typ: trigger.TypeCron, ring: true})
		p.refresh(j, next)
	}
	return out
}

// misfired tells whether a fire planned at next, read at nowMs, is late
// past the pre-read window (case A).
func misfired(next, nowMs int64) bool { return nowMs > next+preReadMs }

// skips tells whether plan drops the job's pending fire without firing
// it: misfired, with a strategy other than FIRE_ONCE_NOW.
func skips(j *schema.JobInfo, nowMs int64) bool {
	return misfired(j.TriggerNextTime, nowMs) && misfireOf(j) != misfireFireOnceNow
}

// misfireOf is the job's misfire strategy for the pools; an unknown value
// is DO_NOTHING, as MisfireStrategyEnum.match falls back to it.
func misfireOf(j *schema.JobInfo) string {
	if j.MisfireStrategy == misfireFireOnceNow {
		return misfireFireOnceNow
	}
	return "DO_NOTHING"
}

// refresh moves the job to its next fire time after fromMs; a job without
// one (NONE, an expired cron, an unparseable conf) is switched off, and in
// case C still fires the time already pushed.
func (p planner) refresh(j *schema.JobInfo, fromMs int64) {
	conf := ""
	if j.ScheduleConf != nil {
		conf = *j.ScheduleConf
	}
	next, ok, err := cron.NextTimeWith(p.fixRate, j.ScheduleType, conf, time.UnixMilli(fromMs), p.loc)
	if err == nil && ok {
		j.TriggerLastTime = j.TriggerNextTime
		j.TriggerNextTime = next.UnixMilli()
		return
	}
	j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime = 0, 0, 0
	ev := p.log.Error().Int("jobId", j.ID).Str("scheduleType", j.ScheduleType).Str("scheduleConf", conf)
	if err != nil {
		ev = ev.Err(err)
	}
	ev.Msg("no next trigger time, job stopped")
}
