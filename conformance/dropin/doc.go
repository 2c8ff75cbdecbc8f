// Package dropin checks that one admin takes over a database the other
// admin made, both ways: the Java admin 2.4.2 creates an executor group
// and jobs through its console and runs them; ours starts beside it, the
// Java admin stops, and ours fires the same jobs on the same grid, writing
// the same xxl_job_log columns; then the same with the roles swapped.
package dropin
