// Package apidiff sends the same executor API requests (/api/registry,
// /api/registryRemove, /api/callback; good and bad input) to the Java admin
// 2.4.2 and to ours and compares status, headers and bodies
// (executor-protocol.md §2). The Java admin's answers are kept in
// testdata/java-admin-api.json, which the offline replay of recorded
// executor traffic (conformance/replay) reads instead of constants; this
// test checks that file against the live Java admin.
package apidiff
