// Package durable proves that retries and child triggers survive an admin
// crash (issue 23 §1, docs/differences.md): admin processes of ours share a
// database (MariaDB, PostgreSQL, SQLite, a 3-node MariaDB Galera cluster)
// under a load where children and retries are always pending — parent jobs
// firing every second, each with a child that succeeds and one that fails
// and is retried once — while one admin after another is SIGKILLed at
// random moments and restarted. Counted from the executor's ledger (every
// run started, per log id; internal/testsupport/fakeexec behaves as the
// Java executor where a takeover depends on it) and from xxl_job_log, every
// child and retry that was decided — a parent's stored success, a failed
// log's retry marker — fires exactly once: none lost, none doubled. And no
// log row of any job (parents' schedule fires too) is left without a
// result: the admins' settlers (core/thread) settle the rows a killed
// admin wrote before their /run, and the figures count what is left.
// Beside the families, workflows of 10 nodes start every second; every
// node of every run is counted the same way and its state checked against
// the rules (workflow.go, wfcount.go).
//
// The process cluster machinery is conformance/cluster's (the admin binary,
// processes, SIGKILL), the Galera cluster conformance/galera's.
package durable
