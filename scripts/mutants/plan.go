package main

import (
	"fmt"
	"strings"
)

// plan gives the checks a mutant is run against.
type plan func(mutant) []check

// The fire-counting tests of each package: the ones that count, per job
// and planned second or per log id, what fired and what ran.
var (
	liveFires    = check{Pkg: "./conformance/live", Run: "TestLiveScheduledRuns|TestLiveExecutors|TestLiveCronEndToEnd|TestLivePyxxl"}
	clusterFires = check{Pkg: "./conformance/cluster", Run: "TestClusterProcesses"}
	dropinFires  = check{Pkg: "./conformance/dropin", Run: "TestDropIn"}
	mixedFires   = check{Pkg: "./conformance/mixed", Run: "TestMixedCluster"}
	// triggerFires are the trigger flow's own counts of /run calls at a
	// fake executor.
	triggerFires = check{Pkg: "./core/trigger", Run: "^(TestTriggerSingle|TestTriggerBroadcast)$"}

	// liveScheduled is one executor's scheduled runs: schedule loop, ring,
	// pools, /run and a real Java executor 2.4.2, counting log rows per
	// planned second and runs per log id at the executor.
	liveScheduled = check{Pkg: "./conformance/live", Run: `^TestLiveScheduledRuns$/^2\.4\.2$`}
	// clusterMySQL is three admin processes on MariaDB counting fires per
	// job and second at a fake executor (the PostgreSQL half adds nothing
	// for these doors).
	clusterMySQL = check{Pkg: "./conformance/cluster", Run: "^TestClusterProcesses$/^mysql$"}
)

// fullPlan runs every mutant against every fire-counting package whose
// tests pass its door, to measure which catch what and how fast (about
// half an hour on two cores). The trigger flow's counts call the flow
// directly, past the pools, so they see only the run mutants.
func fullPlan(m mutant) []check {
	all := []check{liveFires, clusterFires, dropinFires, mixedFires}
	if m.target.Name == "run" {
		all = append([]check{triggerFires}, all...)
	}
	return all
}

// ciPlan is what .ci/run checks (make mutants), about 3 minutes on two
// cores:
//   - every mutant against the live scheduled runs: the one test that sees
//     both doors end to end with a real executor, and the one whose blind
//     spot (a /run sent twice runs twice at the executor, but leaves one
//     log row) the run ledger closed; it must not open again;
//   - the run mutants also against the trigger flow's own /run counts
//     (core/trigger), seconds each;
//   - run-double, the mutant of issue 22, also against the process
//     cluster on MariaDB, the cheapest of the suites that count at a fake
//     executor (about a minute).
//
// The drop-in and mixed suites, and the cluster for the other three
// mutants, kill them too, but at 1-3 minutes per mutant each (-plan full).
// Left out on purpose: the pools' own tests (core/trigger TestPools*,
// TestAttack*) hang under the submit mutants until go test's timeout
// instead of failing, and core/schedule drives a recording submitter,
// never the two doors.
func ciPlan(m mutant) []check {
	switch m.String() {
	case "run-double":
		return []check{triggerFires, liveScheduled, clusterMySQL}
	case "run-drop":
		return []check{triggerFires, liveScheduled}
	}
	return []check{liveScheduled}
}

// choosePlan resolves -plan, or -pkgs/-run when given.
func choosePlan(name, pkgs, run string) (plan, error) {
	if strings.TrimSpace(pkgs) != "" {
		var checks []check
		for _, p := range strings.Split(pkgs, ",") {
			if p = strings.TrimSpace(p); p != "" {
				checks = append(checks, check{Pkg: p, Run: run})
			}
		}
		return func(mutant) []check { return checks }, nil
	}
	if run != "" {
		return nil, fmt.Errorf("-run needs -pkgs")
	}
	switch name {
	case "ci":
		return ciPlan, nil
	case "full":
		return fullPlan, nil
	}
	return nil, fmt.Errorf("unknown plan %q (ci or full)", name)
}
