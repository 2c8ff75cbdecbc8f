package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// runDBUpgrade prints the plan, checks that no admin is scheduling and,
// unless it is a dry run, applies the plan step by step with timings.
func runDBUpgrade(ctx context.Context, store *schema.Store, p dbArgs, cfg *config.Config, terminal bool, w io.Writer) error {
	plan, err := store.PlanUpgrade(ctx, p.to)
	if err != nil {
		return err
	}
	printPlan(w, plan)
	if len(plan.Problems) > 0 {
		return fmt.Errorf("%w: %s (the upgrade changes nothing until these are settled)", schema.ErrUnsupportedSchema, strings.Join(plan.Problems, "; "))
	}
	if plan.NothingToDo() {
		_, _ = fmt.Fprintln(w, "nothing to do: the tables are 3.4.2's")
		return nil
	}
	dupes := plan.DuplicateRows > 0 && !p.removeDupes
	dupesErr := fmt.Errorf("refused: duplicate registrations (%d) break the unique key of xxl_job_registry; run again with --remove-duplicate-registrations to remove them (the newest row of each key is kept)", plan.DuplicateRows)
	activity := schema.ActivityOptions{Idle: p.idle}
	if p.idle == 0 {
		activity.Idle = -1 // only what happens while watching counts
	}
	if p.dryRun {
		_, _ = fmt.Fprintf(w, "checking that no admin is scheduling on this database (watching for %s)\n", schema.DefaultWatch)
		act, err := store.CheckActivity(ctx, activity)
		if err != nil {
			return err
		}
		printActivity(w, act)
		_, _ = fmt.Fprintln(w, "dry run: nothing was changed")
		switch {
		case act.Active():
			return refusal(act, p.idle)
		case dupes:
			return dupesErr
		}
		return nil
	}
	if dupes {
		return dupesErr
	}
	_, _ = fmt.Fprintf(w, "checking that no admin is scheduling on this database (watching for %s)\n", schema.DefaultWatch)
	printer := newUpgradeSteps(w, terminal, len(plan.Steps))
	res, err := store.ApplyUpgrade(ctx, plan, schema.UpgradeOptions{
		RemoveDuplicateRegistrations: p.removeDupes,
		Activity:                     activity,
		AllowUnknownColumns:          cfg.AllowUnknownColumns,
		Checked:                      func(a schema.Activity) { printActivity(w, a) },
		Started:                      printer.started,
		Progress:                     printer.progress,
		Finished:                     printer.finished,
	})
	if errors.Is(err, schema.ErrAdminActive) {
		return refusal(res.Activity, p.idle)
	}
	if err != nil {
		return err
	}
	if res.Commit > 0 {
		_, _ = fmt.Fprintf(w, "commit ... %s\n", res.Commit.Round(time.Millisecond))
	}
	var steps time.Duration
	for _, st := range res.Steps {
		steps += st.Took
	}
	_, _ = fmt.Fprintf(w, "upgraded to %s: the steps took %s (%s with the checks); the admin finds a %s database",
		plan.To, (steps + res.Commit).Round(time.Millisecond), res.Took.Round(time.Millisecond), res.Check.Generation)
	if len(res.Check.Warnings) == 0 {
		_, _ = fmt.Fprintln(w, " without warnings")
	} else {
		_, _ = fmt.Fprintln(w)
		for _, warn := range res.Check.Warnings {
			_, _ = fmt.Fprintln(w, "warning: "+warn)
		}
	}
	if len(plan.ResetUsers) > 0 {
		_, _ = fmt.Fprintf(w, "next: give the %d users listed above a new password (the statements above), then start the 3.4 admins\n", len(plan.ResetUsers))
	}
	return nil
}

// printPlan shows what the upgrade would do.
func printPlan(w io.Writer, p schema.UpgradePlan) {
	_, _ = fmt.Fprintf(w, "schema: %s (%s); target: %s (%s)\n", p.From, javaRelease(p.From), p.To, javaRelease(p.To))
	for _, problem := range p.Problems {
		_, _ = fmt.Fprintln(w, "problem: "+problem)
	}
	if len(p.Steps) > 0 {
		_, _ = fmt.Fprintf(w, "plan: %d steps\n", len(p.Steps))
	}
	for i, st := range p.Steps {
		_, _ = fmt.Fprintf(w, "  %d. %s [rows: %d]\n", i+1, st.What, st.Rows)
		for _, stmt := range st.SQL {
			_, _ = fmt.Fprintf(w, "       %s;\n", strings.Join(strings.Fields(stmt), " "))
		}
	}
	if p.DuplicateRows > 0 {
		_, _ = fmt.Fprintf(w, "duplicate registrations: %d (rows of xxl_job_registry, of %d keys, that share their (group, key, value) with a newer row, as the database compares them); the unique key of 3.4.2 refuses them: --remove-duplicate-registrations removes them (executors register again within 30 s)\n",
			p.DuplicateRows, p.DuplicateKeys)
	}
	if len(p.ResetUsers) > 0 {
		_, _ = fmt.Fprintf(w, "users to reset: %d (their password is a 2.x MD5 hash, which 3.x logins refuse; a hash cannot be converted, so after the upgrade each needs a new password, stored as SHA-256 by):\n", len(p.ResetUsers))
		for _, u := range p.ResetUsers {
			_, _ = fmt.Fprintf(w, "  %s\n", p.PasswordResetSQL(u))
		}
	}
	for _, note := range p.Notes {
		_, _ = fmt.Fprintln(w, "note: "+note)
	}
}

func printActivity(w io.Writer, a schema.Activity) {
	for _, note := range a.Notes {
		_, _ = fmt.Fprintln(w, "note: "+note)
	}
	if !a.Active() {
		_, _ = fmt.Fprintf(w, "no admin seen scheduling (watched %s)\n", a.Watched.Round(100*time.Millisecond))
		return
	}
	for _, s := range a.Seen {
		_, _ = fmt.Fprintln(w, "seen: "+s)
	}
}

// refusal says why the upgrade does not run and what to do.
func refusal(a schema.Activity, idle time.Duration) error {
	hint := "stop every admin of this database (Java or xxl-admin-go, either generation), then run again"
	if !a.QuietAt.IsZero() {
		hint += fmt.Sprintf("; if they are all stopped already, the traces seen are %s old at %s (--idle sets how long the database must have been quiet)",
			idle, a.QuietAt.Format("2006-01-02 15:04:05 MST"))
	}
	return fmt.Errorf("refused: %w; %s", a.Err(), hint)
}
