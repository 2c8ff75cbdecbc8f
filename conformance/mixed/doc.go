// Package mixed runs the Java admin 2.4.2 and ours as a cluster on one
// MariaDB database, as during a rolling migration, and checks that they
// share the schedule: no job fired twice in any second, fires lost only
// from the ring of an admin that was killed, and child jobs, retries and
// alarms handled once whichever admin takes them (scheduler.md §14).
package mixed
