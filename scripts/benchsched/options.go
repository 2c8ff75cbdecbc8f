package main

// options are the command-line settings of one benchmark invocation.
type options struct {
	seconds    int
	db         string
	out        string
	bin        string
	extra      []string
	inProcess  bool
	cpuProfile string
	tmp        string
}
