package console

// The 3.4.2 console's pages opened in the frame's tabs (jobs, logs,
// executors, users) and in windows of their own (the GLUE IDE, the rolling
// log). Each handler builds the model its template and page script need,
// with the checks the 3.4.2 controllers make before rendering (a failure
// is that admin's error page: failure34); their JSON endpoints live beside
// them (routes34.go).

// xxlJobException34 is the 3.4.2 admin's XxlJobException (its package
// moved in 3.x), as its exception resolver prints it.
func xxlJobException34(msg string) error {
	return &javaException{text: "com.xxl.job.admin.business.scheduler.exception.XxlJobException: " + msg}
}

// glueTypes34 are the 3.4.2 GlueTypeEnum descriptions in its order (not
// i18n): GLUE_PYTHON is Python 3 there, GLUE_PYTHON2 the one for python.
var glueTypes34 = []Option{{"BEAN", "BEAN"}, {"GLUE_GROOVY", "GLUE(Java)"}, {"GLUE_SHELL", "GLUE(Shell)"},
	{"GLUE_PYTHON", "GLUE(Python3)"}, {"GLUE_PYTHON2", "GLUE(Python2)"}, {"GLUE_NODEJS", "GLUE(Nodejs)"},
	{"GLUE_POWERSHELL", "GLUE(PowerShell)"}, {"GLUE_PHP", "GLUE(PHP)"}}

// JobInfoData34 is the 3.4.2 job list's model (JobInfoController.index):
// the groups the user may use, the one selected (-1: the first), and the
// enums of the add and edit form.
type JobInfoData34 struct {
	Groups            []GroupOption `json:"groups"`
	JobGroup          int           `json:"jobGroup"`
	RouteStrategies   []Option      `json:"routeStrategies"`
	GlueTypes         []Option      `json:"glueTypes"`
	BlockStrategies   []Option      `json:"blockStrategies"`
	ScheduleTypes     []Option      `json:"scheduleTypes"`
	MisfireStrategies []Option      `json:"misfireStrategies"`
	// Ours: where the export and import of the job list are (transfer.go).
	ExportPath string `json:"exportPath"`
	ImportPath string `json:"importPath"`
	// Zones is the add and edit form's time zone field, where the
	// database has per-job time zones (zone.go); nil elsewhere.
	Zones *ZoneChoice `json:"zones,omitempty"`
}

// JobLogData34 is the 3.4.2 log list's model (JobLogController.index): the
// groups the user may use, the selected group and job, and that group's
// jobs for the job filter (0: all of them).
type JobLogData34 struct {
	Groups   []GroupOption `json:"groups"`
	JobGroup int           `json:"jobGroup"`
	JobID    int           `json:"jobId"`
	Jobs     []JobOption   `json:"jobs"`
}

// JobOption is a job in the log list's job filter.
type JobOption struct {
	ID      int    `json:"id"`
	JobDesc string `json:"jobDesc"`
}

// LogDetailData34 is the 3.4.2 rolling log page's model.
type LogDetailData34 struct {
	LogID       int64  `json:"logId"`
	TriggerCode int    `json:"triggerCode"`
	HandleCode  int    `json:"handleCode"`
	JobDesc     string `json:"jobDesc"` // "" when the job is gone
}
