// Package apidiff sends the same executor API requests (/api/registry,
// /api/registryRemove, /api/callback; good and bad input) to a Java admin
// and to ours and compares status, headers and bodies
// (executor-protocol.md §2), once per generation: the 2.4.2 jar and ours
// on a fresh 2.x database (TestSameAnswers, context path /xxl-job-admin),
// and the 3.4.2 jar and ours on a fresh 3.x database (TestSameAnswers342,
// context path /, with the cases where 3.4.2's check order differs). The
// Java admins' answers are kept in testdata/java-admin-api.json and
// testdata/java-admin-3.4.2-api.json; the offline replay of recorded
// executor traffic (conformance/replay) reads the first instead of
// constants. The differences ours makes on purpose are named deviations
// with their reasons, reported, not failed.
package apidiff
