package main

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"time"
)

// keptStats is what a kept data set (-keep) says about itself: the ids of
// its first group and job, its log rows and the first and last trigger
// times.
type keptStats struct {
	firstGroup, firstJob, rows int
	first, last                time.Time
}

// dataset rebuilds what buildData returned, and the days the rows span.
// buildData spreads the rows evenly from start to end, so the first
// trigger is start and the last is less than a second before end.
func (k keptStats) dataset(name string) (dataset, int, error) {
	if k.rows == 0 || k.firstGroup == 0 || k.firstJob == 0 {
		return dataset{}, 0, fmt.Errorf("%s is not a data set of benchgrowth (groups growth-*, jobs 'growth job *' and log rows)", name)
	}
	ds := dataset{name: name, rows: k.rows, firstGroup: k.firstGroup, firstJob: k.firstJob,
		start: k.first.UTC().Truncate(time.Second), end: k.last.UTC().Truncate(time.Second).Add(time.Second)}
	return ds, int(math.Round(ds.end.Sub(ds.start).Hours() / 24)), nil
}

// reuseData reads a kept data set back (-reuse), so one built once (100M
// rows take the better part of an hour) is measured again with a newer
// binary. The rows are counted (a minute or two at 100M): the ids of
// INSERT … SELECT batches have gaps, MAX(id) − MIN(id) would overcount.
func reuseData(ctx context.Context, srv server, name string) (dataset, int, error) {
	db, err := sql.Open("mysql", srv.dsn(name))
	if err != nil {
		return dataset{}, 0, err
	}
	defer db.Close()
	var k keptStats
	var group, job sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT MIN(id) FROM xxl_job_group WHERE app_name LIKE 'growth-%'").Scan(&group); err != nil {
		return dataset{}, 0, fmt.Errorf("reuse %s: groups: %w", name, err)
	}
	if err := db.QueryRowContext(ctx, "SELECT MIN(id) FROM xxl_job_info WHERE job_desc LIKE 'growth job %'").Scan(&job); err != nil {
		return dataset{}, 0, fmt.Errorf("reuse %s: jobs: %w", name, err)
	}
	k.firstGroup, k.firstJob = int(group.Int64), int(job.Int64)
	fmt.Fprintf(os.Stderr, "benchgrowth: counting the log rows of %s\n", name)
	var first, last sql.NullTime
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*), MIN(trigger_time), MAX(trigger_time) FROM xxl_job_log").Scan(&k.rows, &first, &last); err != nil {
		return dataset{}, 0, fmt.Errorf("reuse %s: log rows: %w", name, err)
	}
	k.first, k.last = first.Time, last.Time
	return k.dataset(name)
}
