// Package testsupport holds nothing itself: its sub-packages are what tests
// and benchmarks share — databases per test (testdb, storetest), rows
// (testfactory), whole in-process admins (admintest), headless Chromium
// (browser), /proc readings (procstat), an executor with the Java
// executor's queue and log semantics (fakeexec) and the cheapest executor a
// benchmark can call (minexec). No production package imports
// them; internal/loglimit is the one production helper under internal/.
package testsupport
