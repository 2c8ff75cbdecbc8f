package trigger

// Layout chooses which Java admin's trigger_msg the flow writes. The texts
// come from the bundle either way (FlowConfig.Texts); the layout decides
// what surrounds them. app picks it from the database's generation.
type Layout int

const (
	// Layout242 is XxlJobTrigger.processTrigger of the 2.4.2 admin
	// (scheduler.md §6): after the run header, the route message (a probe
	// report or the failure) and the executor's rewritten /run answer.
	Layout242 Layout = iota
	// Layout342 is JobTrigger.processTrigger of the 3.4.2 admin: after
	// the run header the executor address (or "address route fail, …"),
	// the JobHandler, the parameter and "<trigger remark>：success" /
	// "error, …" / "fail". Its failure texts are the 3.4.2 HTTP client's
	// exceptions (see exception342).
	Layout342
)
