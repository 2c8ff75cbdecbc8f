// Package jobs is the one service that changes a job: add, update, start,
// stop, remove and the GLUE source save, with the Java admin's validation
// order and messages (console.md §5, §6), used by the console and the job
// API alike.
//
// Every write that touches a job's schedule (trigger_status and the
// next/last trigger times) runs inside the schedule-lock transaction and
// reads the job with a locking read, so a schedule round — of this admin or
// of any other admin, Java or Go, sharing the database — can never undo it
// with a stale copy, and on a multi-primary cluster two nodes writing the
// same job conflict instead of both winning.
//
// Every job it creates, changes, starts, stops or removes, and every GLUE
// save, writes one audit line at info level once the change is committed,
// on both generations: the message is the 3.4.2 admin's operation log
// ("xxl-job operation log: operator = <user>, type = jobinfo-save, content
// = <job id>"), with the fields user, action and job_id. Callers name the
// user with WithOperator on the request's context; a "run once" trigger,
// which does not pass through this service, is audited with AuditTrigger.
package jobs
