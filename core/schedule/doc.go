// Package schedule is the admin's schedule thread and time ring
// (scheduler.md §3): a loop that, once a second and under the cluster-wide
// schedule lock, pre-reads the jobs due within the next five seconds, fires
// the late ones, pushes the others into an in-memory ring keyed by
// second-of-minute and advances their trigger_next_time; and a ring ticker
// that each whole second submits the jobs of the current and the previous
// slot.
//
// Differences from Java, all stricter: the pre-read query and the
// write-back run inside the locking transaction (schema.md §4.8); the
// pre-read is itself a locking read (FOR UPDATE on MySQL/MariaDB) and the
// write-back a compare-and-set on the trigger_next_time read; and the
// round's triggers are only submitted and pushed into the ring after that
// transaction committed. So a job fires only if this admin's own committed
// transaction moved it from the time it read: a failed round fires nothing
// and is simply redone (Java may fire such jobs twice, scheduler.md §3.2
// step 6), a job edited by another writer meanwhile is never fired on stale
// data, and on a multi-primary cluster (Galera), where the schedule lock
// only locks on its own node, two admins' rounds over the same jobs
// conflict at certification and only one fires them (docs/topologies.md).
// A round lost to such a conflict is not an outage: it is logged once at
// info and the next round follows a second later. A failing database is
// retried with a growing pause (1 s doubling to 5 s) instead of every
// second, and the stop waits until the ring is empty rather than always
// sleeping the full 8 s (3.3.2's stop waits the same way, up to 10 s; the
// ring never holds a fire more than 5 s ahead, so both bounds are only a
// safety net). A job fires once per planned second even if pushed twice,
// as in 3.3.0's ring (ring.take).
package schedule
