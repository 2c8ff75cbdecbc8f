package main

import "time"

// options are the command-line settings of one benchmark invocation.
type options struct {
	admin string // ours, java (2.4.2) or java342
	jar   string
	// schema is the generation the database is created as: "2.4", or
	// "3.4" (the 3.4.2 tables; java342 needs them, ours behaves as 3.4.2
	// on them and serves at the root context path).
	schema     string
	seconds    int
	warmUp     time.Duration
	db         string
	out        string
	bin        string
	extra      []string
	inProcess  bool
	cpuProfile string
	tmp        string
	tag        string        // names the output file: sched-<admin>-<N><tag>.json
	dump       bool          // write the fires and log rows beside the admin log
	settle     time.Duration // -ab: wait up to this long for a quiet box before each run
}

// java tells whether the admin is a Java jar.
func (o options) java() bool { return o.admin == "java" || o.admin == "java342" }

// gen3 tells whether the database is a 3.x one.
func (o options) gen3() bool { return o.schema == "3.4" }

// contextPath is where the admin serves: 2.x /xxl-job-admin, 3.x the root
// (3.4.2's default, and ours on a 3.x database).
func (o options) contextPath() string {
	if o.gen3() {
		return ""
	}
	return "/xxl-job-admin"
}

// readyPath is the login page, served once the admin is up: 2.4.2's
// <ctx>/toLogin, 3.4.2's /auth/login (ours serves the same).
func (o options) readyPath() string {
	if o.gen3() {
		return "/auth/login"
	}
	return o.contextPath() + "/toLogin"
}

// label names the run in file names: the admin, and "342" for ours on a
// 3.x database.
func (o options) label() string {
	if o.admin == "ours" && o.gen3() {
		return "ours342"
	}
	return o.admin
}
