package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/report"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// noTrigger and noAlarm stand in for the trigger door and the alarms: the
// data set has nothing to retry, alarm or complete (its failed rows are
// alarmed already, none is running), so a pass only reads.
type noTrigger struct{}

func (noTrigger) Submit(trigger.Request) error { return nil }

type noAlarm struct{}

func (noAlarm) Alarm(context.Context, alarm.Event) bool { return true }

// measureMonitors (-monitors) times, through the store on ds, one idle
// pass of ours' background work the way the admin runs it: the fail
// monitor's first pass after a start and its steady pass (every 10 s),
// the lost-job monitor's hourly pass from the first row and its steady
// one (every minute), the log report's whole three days (every 10
// minutes) and its steady refresh (every minute); steady passes are the
// median of runs. With java, Java's statements for the same work once
// each (they read the table from its first row: minutes at 100M).
func measureMonitors(ctx context.Context, w io.Writer, srv server, ds dataset, gen schema.Generation, runs int, java bool) error {
	t, err := schema.ParseJDBC(srv.jdbc(ds.name), srv.user, srv.pass)
	if err != nil {
		return err
	}
	st, err := schema.Open(ctx, t, schema.PoolSettings{MaxOpen: 4})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Prepare(ctx, schema.PrepareOptions{}); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	texts := i18n.LoadFor(gen.Major(), "en")
	nop := zerolog.Nop()
	fail := thread.NewFailMonitor(thread.FailMonitorConfig{Store: st, Texts: texts, Trigger: noTrigger{}, Alarm: noAlarm{}, Log: nop})
	completer := thread.NewCompleter(thread.CompleterConfig{Store: st, Texts: texts, Trigger: noTrigger{}, Log: nop})
	lost := thread.NewLostMonitor(thread.LostMonitorConfig{Store: st, Completer: completer, Texts: texts, Log: nop})
	rep := report.New(report.Config{Store: st, Loc: time.UTC, Log: nop})
	type work struct {
		name   string
		first  func() error // the first pass (from the table's head, or whole)
		steady func() error
	}
	list := []work{
		{"fail monitor (every 10 s)", func() error { return fail.Pass(ctx) }, func() error { return fail.Pass(ctx) }},
		// A fresh monitor's first pass reads from the first row (the hourly
		// full pass); the next 59 read from the oldest row still running.
		{"lost-job monitor (every minute)", func() error { return lost.Pass(ctx) }, func() error { return lost.Pass(ctx) }},
		{"log report (every minute)", func() error { return rep.RefreshNow(ctx) }, func() error { return rep.RefreshNow(ctx) }},
	}
	fmt.Fprintf(w, "\n#### Monitors, %s schema, %d log rows (ours, one idle pass through the store)\n\n| work | first pass | steady pass |\n|---|---|---|\n", gen, ds.rows)
	for _, m := range list {
		first, err := timed(m.first)
		if err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		var all []time.Duration
		for range max(runs, 1) {
			d, err := timed(m.steady)
			if err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
			all = append(all, d)
		}
		sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
		fmt.Fprintf(os.Stderr, "  %-40s first %s, steady %s\n", m.name, first.Round(time.Millisecond), all)
		fmt.Fprintf(w, "| %s | %s | %s |\n", m.name, fmtDur(first), fmtDur(all[len(all)/2]))
	}
	if !java {
		return nil
	}
	fmt.Fprintf(w, "\n| Java's statements, once | time |\n|---|---|\n")
	now := time.Now()
	for _, j := range []struct {
		name string
		run  func() error
	}{
		{"fail monitor: findFailJobLogIds", func() error { _, err := st.LogFindFailIDs(ctx, 1000); return err }},
		{"fail monitor: the alarm-claims scan beside it", func() error {
			_, err := st.LogFindAlarmClaims(ctx, []int{thread.AlarmClaimed, thread.AlarmSending}, 1000)
			return err
		}},
		{"lost-job monitor: findLostJobIds", func() error { _, err := st.LogFindLostIDs(ctx, now.Add(-thread.LostAfter)); return err }},
		{"log report: findLogReport, three days", func() error {
			for i := range 3 {
				day := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -i)
				if _, err := st.LogCountsBetween(ctx, day, day.Add(24*time.Hour-time.Second)); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		d, err := timed(j.run)
		if err != nil {
			return fmt.Errorf("%s: %w", j.name, err)
		}
		fmt.Fprintf(os.Stderr, "  %-40s %s\n", j.name, d.Round(time.Millisecond))
		fmt.Fprintf(w, "| %s | %s |\n", j.name, fmtDur(d))
	}
	return nil
}

func timed(f func() error) (time.Duration, error) {
	began := time.Now()
	err := f()
	return time.Since(began), err
}
