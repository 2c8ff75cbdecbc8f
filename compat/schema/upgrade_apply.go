package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// UpgradeOptions say what ApplyUpgrade may do.
type UpgradeOptions struct {
	// RemoveDuplicateRegistrations deletes the registrations the unique key
	// refuses (keeping the newest of each key); without it they stop the
	// upgrade.
	RemoveDuplicateRegistrations bool
	// Activity tunes the check that no admin is scheduling on the database.
	Activity ActivityOptions
	// AllowUnknownColumns is passed to the Prepare that checks the result.
	AllowUnknownColumns bool
	// Checked, Started and Finished, when set, are told of the activity
	// check's result and of each step (the command line prints the timings
	// as they come).
	Checked  func(Activity)
	Started  func(i int, step UpgradeStep)
	Finished func(i int, step UpgradeStep, took time.Duration)
	// Progress, when set, is called every ProgressEvery (default 1 s)
	// while a step runs, with the share of its current statement the
	// server says is done (0–1, -1 where it says nothing; see
	// execWatched) and the step's time so far: an ALTER of a table of
	// millions of rows takes minutes.
	Progress      func(i int, step UpgradeStep, done float64, elapsed time.Duration)
	ProgressEvery time.Duration
}

// StepTiming is how long one step took.
type StepTiming struct {
	Step UpgradeStep
	Took time.Duration
}

// UpgradeResult is what ApplyUpgrade did.
type UpgradeResult struct {
	Activity Activity
	Steps    []StepTiming
	Commit   time.Duration // PostgreSQL and SQLite: the one transaction's commit
	Took     time.Duration
	Check    PrepareResult // Prepare after the upgrade
}

// ApplyUpgrade runs a plan made by PlanUpgrade. It refuses a plan with
// problems, duplicate registrations unless told to remove them, a database
// on which an admin is scheduling (CheckActivity), and a plan the database
// no longer matches (plan again). MySQL runs the steps one by one (each
// ALTER commits on its own, and a run that stops half-way is finished by
// the next one, which plans only what is still missing); PostgreSQL and
// SQLite run them in one transaction. Then Prepare checks the result: the
// store is a Gen3 one afterwards.
func (s *Store) ApplyUpgrade(ctx context.Context, plan UpgradePlan, opts UpgradeOptions) (UpgradeResult, error) {
	var res UpgradeResult
	start := time.Now()
	if plan.To != Gen3 {
		return res, fmt.Errorf("upgrade: the only target is %s", Gen3)
	}
	if len(plan.Problems) > 0 {
		return res, fmt.Errorf("upgrade: %w: %s", ErrUnsupportedSchema, strings.Join(plan.Problems, "; "))
	}
	if plan.DuplicateRows > 0 && !opts.RemoveDuplicateRegistrations {
		return res, fmt.Errorf("upgrade: %w: %d rows of xxl_job_registry share their (group, key, value) with a newer row (keys: %d); the unique key of 3.4.2 refuses them: remove them (they are registrations, which executors renew within 30 s) or delete them yourself",
			ErrDuplicateRegistrations, plan.DuplicateRows, plan.DuplicateKeys)
	}
	if plan.NothingToDo() {
		return s.finishUpgrade(ctx, res, start, opts)
	}
	act, err := s.CheckActivity(ctx, opts.Activity)
	res.Activity = act
	if err != nil {
		return res, err
	}
	if opts.Checked != nil {
		opts.Checked(act)
	}
	if act.Active() {
		return res, fmt.Errorf("upgrade refused: %w", act.Err())
	}
	fresh, err := s.PlanUpgrade(ctx, plan.To)
	if err != nil {
		return res, err
	}
	if !sameStatements(fresh, plan) || fresh.DuplicateRows != plan.DuplicateRows {
		return res, fmt.Errorf("upgrade: %w: plan again", ErrPlanStale)
	}
	every := opts.ProgressEvery
	if every <= 0 {
		every = time.Second
	}
	// q is one connection (or the transaction), so the server's progress
	// of its session can be found.
	run := func(q runner) error {
		for i, step := range plan.Steps {
			if opts.Started != nil {
				opts.Started(i, step)
			}
			t0 := time.Now()
			var watch func(float64)
			if opts.Progress != nil {
				watch = func(done float64) { opts.Progress(i, step, done, time.Since(t0)) }
			}
			for _, stmt := range step.SQL {
				if err := s.execWatched(ctx, q, stmt, every, watch); err != nil {
					return fmt.Errorf("upgrade step %d (%s): %s: %w", i+1, step.Table, stmt, s.failed(ctx, err))
				}
			}
			took := time.Since(t0)
			res.Steps = append(res.Steps, StepTiming{Step: step, Took: took})
			if opts.Finished != nil {
				opts.Finished(i, step, took)
			}
		}
		return nil
	}
	if s.d.transactionalDDL() {
		var committing time.Time
		err = s.WithTx(ctx, func(tx *Store) error {
			err := run(tx.q)
			committing = time.Now()
			return err
		})
		if err == nil {
			res.Commit = time.Since(committing)
		}
	} else {
		var conn *sql.Conn
		if conn, err = s.db.Conn(ctx); err == nil {
			err = run(conn)
			_ = conn.Close()
		}
	}
	if s.d.backend() == Postgres {
		s.dropIdleConnections()
	}
	if err != nil {
		if !s.d.transactionalDDL() && len(res.Steps) > 0 {
			err = fmt.Errorf("%w (steps 1-%d are done: run the upgrade again to finish it)", err, len(res.Steps))
		}
		return res, err
	}
	return s.finishUpgrade(ctx, res, start, opts)
}

// finishUpgrade checks the result as the admin will: Prepare must find a
// 3.4 database. Our own PendingTable is left as it is (the admin creates
// it when missing; the upgrade is about Java's tables).
func (s *Store) finishUpgrade(ctx context.Context, res UpgradeResult, start time.Time, opts UpgradeOptions) (UpgradeResult, error) {
	check, err := s.Prepare(ctx, PrepareOptions{AllowUnknownColumns: opts.AllowUnknownColumns, SkipPendingTable: true})
	res.Check, res.Took = check, time.Since(start)
	if err != nil {
		return res, fmt.Errorf("upgrade: the result does not pass the schema check: %w", err)
	}
	if check.Generation != Gen3 {
		return res, errors.New("upgrade: the database is not a 3.4 one afterwards")
	}
	return res, nil
}

// dropIdleConnections closes the pool's idle connections: pgx keeps each
// connection's prepared statements, and one prepared before a column's type
// changed fails once afterwards ("cached plan must not change result type").
func (s *Store) dropIdleConnections() {
	s.db.SetMaxIdleConns(0)
	s.db.SetMaxIdleConns(s.maxIdle)
}

func sameStatements(a, b UpgradePlan) bool {
	return slices.EqualFunc(a.Steps, b.Steps, func(x, y UpgradeStep) bool { return slices.Equal(x.SQL, y.SQL) })
}
