// Package replay holds the replay tests that check the Go protocol code in
// compat/api against the recorded traffic of the real Java executor
// (conformance/testdata/recordings/java-executor-2.4.2). It has no
// non-test code.
package replay
