// Package monitors holds the end-to-end tests of the admin's monitors: a
// whole admin runs in-process (internal/testsupport/admintest) against SQLite and
// MariaDB, a fake executor in Go makes its jobs fail, and a real SMTP server
// and a webhook receiver record the alarms. They check the fail monitor's
// retries and exactly-once alarms (scheduler.md §8, config.md §4), the
// lost-job monitor (scheduler.md §10), and both across a database outage.
// It has no non-test code.
package monitors
