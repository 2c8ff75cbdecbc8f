// Package trigger runs one trigger of a job the way the Java admin's
// XxlJobTrigger does (scheduler.md §5) and hands triggers to the fast and
// slow worker pools of JobTriggerPoolHelper (scheduler.md §4).
//
// A [Flow] loads the job and its group, fans SHARDING_BROADCAST out to
// every registered address, and for each shard inserts the log row before
// calling the executor's /run, then updates the row with the result and the
// trigger_msg text of scheduler.md §6 (byte-exact, in the configured
// bundle's language). On a 3.x database the flow writes the 3.4.2 admin's
// trigger_msg instead ([Layout342], JobTrigger.processTrigger): executor
// address, JobHandler, parameter and "success" / "error, …" lines after
// the run header, and the 3.4.2 HTTP client's exception texts for calls
// and probes that got no usable answer — the exception's first line only,
// where Java stores its whole stack trace. Both layouts take one trigger
// time for every shard of a broadcast (3.4.2's behaviour; 2.4.2 read the
// clock per shard).
//
// [Pools] queue triggers without ever blocking the submitter and run them
// as a pipeline per pool: many triggers are prepared at once (their jobs
// reloaded in one statement, their log rows written in one), a schedule
// fire submitted with its planned time (Request.At) up to [PrepareLead]
// before it, so its /run leaves at the second; senders fire the rows one
// by one; the results are written many per statement. A job whose
// triggers took longer than 500 ms more than ten times in the current
// minute, or one of whose triggers has run over 500 ms, is demoted to the
// slow pool. A full queue is reported to the submitter with [ErrPoolFull]
// and recorded as a failed log row, so no trigger disappears silently.
// When a pool cannot keep up, it serves the newest second first and
// applies the misfire strategy to fires more than [MisfireAfter] late
// (DO_NOTHING skips, FIRE_ONCE_NOW fires once), writing counts once a
// second instead of a line per trigger.
//
// Divergences from Java, all in cases where Java fails half-way with a
// null-pointer error and leaves a log row at trigger_code 0 forever
// (scheduler.md §5 failure note): an unknown route strategy, a missing
// group or a NULL glue_updatetime produce a finished row instead — code 500
// with an explanatory text for the first two, glueUpdatetime 0 for the
// third. Values longer than their log column (executor_param over 512
// characters from a "run once" override on a 2.x database, schema.md §1;
// 3.x's column is text) are clipped in the
// log row only, so the UPDATE never fails after the executor was called;
// the executor still receives the full value.
package trigger
