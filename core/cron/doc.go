// Package cron is the schedule engine of the admin: a Quartz-compatible cron
// dialect evaluated exactly like the CronExpression class bundled with the
// Java xxl-job admin 2.4.2, plus the per-schedule-type next-fire-time rule
// (CRON, FIX_RATE, NONE) of its schedule loop (spec scheduler.md §2).
//
// Bit-for-bit agreement with the Java class matters more than elegance here:
// existing jobs store expressions that the Java admin accepted, and the Go
// admin must accept the same texts and fire at the same instants, including
// the class's odd corners (lenient calendar arithmetic, DST resolution,
// ignored trailing characters). Where the code looks roundabout, it is
// reproducing such a corner on purpose.
package cron
