// Package report is the admin's JobLogReportHelper (scheduler.md §11): it
// keeps xxl_job_log_report, the per-day counts the dashboard charts read,
// current for today and the two days before, and it deletes logs older than
// xxl.job.logretentiondays once a day.
//
// Unlike the Java thread, a database error in either duty is logged once per
// outage and retried on the next tick; it never stops the component.
package report
