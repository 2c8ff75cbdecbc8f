package main

import "time"

// options are the command-line settings of one benchmark invocation.
type options struct {
	admin      string // ours or java
	jar        string
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
