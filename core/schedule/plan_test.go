package schedule

import (
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// TestPlan checks the three cases of one round and the refresh rule
// (scheduler.md §3.2 step 4, §2 next-time table) on a single job read at
// t0+10s (the clock reads the same time during the refresh).
func TestPlan(t *testing.T) {
	now := 10 * time.Second
	nowMs := ms(now)
	type want struct {
		acts []action
		st   triggerState
	}
	ringAt := func(d time.Duration) action {
		return action{entry: entry{1, ms(d), "DO_NOTHING"}, typ: trigger.TypeCron, ring: true}
	}
	fireAt := func(d time.Duration, typ trigger.Type) action {
		misfire := "DO_NOTHING"
		if typ == trigger.TypeMisfire { // the compensation itself never misfires
			misfire = ""
		}
		return action{entry: entry{1, ms(d), misfire}, typ: typ}
	}
	tests := []struct {
		name string
		job  jobSpec
		want want
	}{
		{"C due in 2s: ring, next from planned", jobSpec{typ: "FIX_RATE", conf: "1", next: ms(now + 2*time.Second)},
			want{[]action{ringAt(12 * time.Second)}, triggerState{1, ms(12 * time.Second), ms(13 * time.Second)}}},
		{"C due now exactly", jobSpec{typ: "CRON", conf: "* * * * * ?", next: nowMs},
			want{[]action{ringAt(now)}, triggerState{1, nowMs, ms(11 * time.Second)}}},
		{"C keeps FIX_RATE milliseconds", jobSpec{typ: "FIX_RATE", conf: "3", next: ms(11500 * time.Millisecond)},
			want{[]action{ringAt(11500 * time.Millisecond)}, triggerState{1, ms(11500 * time.Millisecond), ms(14500 * time.Millisecond)}}},
		{"B late 2s: fire, next within 5s goes to the ring", jobSpec{typ: "FIX_RATE", conf: "1", next: ms(8 * time.Second)},
			want{[]action{fireAt(8*time.Second, trigger.TypeCron), ringAt(11 * time.Second)},
				triggerState{1, ms(11 * time.Second), ms(12 * time.Second)}}},
		{"B late, next beyond 5s stays", jobSpec{typ: "FIX_RATE", conf: "10", next: ms(6 * time.Second)},
			want{[]action{fireAt(6*time.Second, trigger.TypeCron)}, triggerState{1, ms(6 * time.Second), ms(20 * time.Second)}}},
		{"B late exactly 5s is not a misfire", jobSpec{typ: "FIX_RATE", conf: "10", next: ms(5 * time.Second)},
			want{[]action{fireAt(5*time.Second, trigger.TypeCron)}, triggerState{1, ms(5 * time.Second), ms(20 * time.Second)}}},
		{"B cron expires after the fire: stopped, no push", jobSpec{typ: "CRON", conf: "8 0 10 22 11 ? 2026", next: ms(8 * time.Second)},
			want{[]action{fireAt(8*time.Second, trigger.TypeCron)}, triggerState{0, 0, 0}}},
		{"A FIRE_ONCE_NOW: one misfire trigger, next from now", jobSpec{typ: "FIX_RATE", conf: "1", misfire: "FIRE_ONCE_NOW", next: ms(-20 * time.Second)},
			want{[]action{fireAt(-20*time.Second, trigger.TypeMisfire)}, triggerState{1, ms(-20 * time.Second), ms(11 * time.Second)}}},
		{"A DO_NOTHING: nothing fires", jobSpec{typ: "FIX_RATE", conf: "1", misfire: "DO_NOTHING", next: ms(-20 * time.Second)},
			want{nil, triggerState{1, ms(-20 * time.Second), ms(11 * time.Second)}}},
		{"A unknown strategy counts as DO_NOTHING", jobSpec{typ: "CRON", conf: "0 * * * * ?", misfire: "fire_once_now", next: ms(-5001 * time.Millisecond)},
			want{nil, triggerState{1, ms(-5001 * time.Millisecond), ms(time.Minute)}}},
		{"C NONE still fires what it pushed, then stops", jobSpec{typ: "NONE", next: ms(11 * time.Second)},
			want{[]action{ringAt(11 * time.Second)}, triggerState{0, 0, 0}}},
		{"A expired cron is stopped", jobSpec{typ: "CRON", conf: "0 0 0 1 1 ? 2020", misfire: "FIRE_ONCE_NOW", next: ms(-time.Hour)},
			want{[]action{fireAt(-time.Hour, trigger.TypeMisfire)}, triggerState{0, 0, 0}}},
		{"C unparseable conf is stopped", jobSpec{typ: "FIX_RATE", conf: "1s", next: ms(12 * time.Second)},
			want{[]action{ringAt(12 * time.Second)}, triggerState{0, 0, 0}}},
		{"C unknown schedule type is stopped", jobSpec{typ: "FIX_DELAY", conf: "1", next: ms(12 * time.Second)},
			want{[]action{ringAt(12 * time.Second)}, triggerState{0, 0, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := planner{loc: time.UTC, clock: clock.NewFake(t0.Add(now)), log: zerolog.Nop()}
			j := schema.JobInfo{ID: 1, ScheduleType: tc.job.typ, ScheduleConf: schema.Ptr(tc.job.conf),
				MisfireStrategy: tc.job.misfire, TriggerStatus: 1, TriggerNextTime: tc.job.next}
			got := p.plan(&j, nowMs)
			if len(got) != len(tc.want.acts) {
				t.Fatalf("actions = %+v, want %+v", got, tc.want.acts)
			}
			for i := range got {
				if got[i] != tc.want.acts[i] {
					t.Errorf("action %d = %+v, want %+v", i, got[i], tc.want.acts[i])
				}
			}
			if st := (triggerState{j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime}); st != tc.want.st {
				t.Errorf("state = %+v, want %+v", st, tc.want.st)
			}
		})
	}
}

// TestPlanRefreshUsesCurrentTime: in cases A and B the next time is
// computed from the time of the refresh, not the round's nowTime
// (scheduler.md §3.2 "current time").
func TestPlanRefreshUsesCurrentTime(t *testing.T) {
	clk := clock.NewFake(t0.Add(10*time.Second + 700*time.Millisecond))
	p := planner{loc: time.UTC, clock: clk, log: zerolog.Nop()}
	j := schema.JobInfo{ID: 1, ScheduleType: "FIX_RATE", ScheduleConf: schema.Ptr("10"), TriggerStatus: 1, TriggerNextTime: ms(9 * time.Second)}
	p.plan(&j, ms(10*time.Second))
	if want := ms(20*time.Second + 700*time.Millisecond); j.TriggerNextTime != want {
		t.Errorf("next = %d, want %d (from refresh time)", j.TriggerNextTime, want)
	}
}

// TestPlanRefreshFixRate342: with the 3.4.2 rule the same refresh lands on
// a whole second (FixRateScheduleType.java 3.4.2; 3.4.0 release note 9),
// where the 2.4.2 rule above keeps the refresh time's milliseconds.
func TestPlanRefreshFixRate342(t *testing.T) {
	clk := clock.NewFake(t0.Add(10*time.Second + 700*time.Millisecond))
	p := planner{loc: time.UTC, fixRate: cron.FixRate342, clock: clk, log: zerolog.Nop()}
	j := schema.JobInfo{ID: 1, ScheduleType: "FIX_RATE", ScheduleConf: schema.Ptr("10"), TriggerStatus: 1, TriggerNextTime: ms(9 * time.Second)}
	p.plan(&j, ms(10*time.Second))
	if want := ms(21 * time.Second); j.TriggerNextTime != want {
		t.Errorf("next = %d, want %d (rounded up to the second)", j.TriggerNextTime, want)
	}
}
