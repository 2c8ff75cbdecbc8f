// Package route implements the ten executor route strategies of xxl-job
// 2.4.2 (spec: routing.md §1). A strategy picks one executor address out
// of a job group's registry list for one trigger.
//
// Use a [Registry] (one per process, mirroring Java's static per-process
// state, routing.md §1.9) and [Registry.Lookup] the stored
// executor_route_strategy name. An unknown name yields ok == false; the
// caller reports it (console.md: jobinfo_field_executorRouteStrategy +
// system_unvalid on add/update; a failed trigger otherwise).
//
// The caller must check for an empty registry list itself and write the
// jobconf_trigger_address_empty text (scheduler.md §6); strategies only
// answer a 500 Result with no message for an empty list so that they never
// panic.
//
// SHARDING_BROADCAST has no Java router: the trigger flow fans out
// (routing.md §1.8, scheduler.md §5). When the looked-up [Info] has
// Broadcast set and the trigger carries no explicit "i/n" sharding param,
// the caller triggers once per address i = 0..n-1 with
// Request.BroadcastIndex = i (total n = len(addresses)); otherwise it
// triggers once with the given index (default 0/1). In every case it calls
// the SHARDING_BROADCAST strategy's Route, which returns addresses[i], or
// addresses[0] when i is out of range (a retry after the list shrank).
package route
