package schema

import "time"

// Nullable columns are pointers so that NULL survives a read-modify-write
// (the Java admin's updates overwrite whole rows) and renders as JSON null.

// Group is a row of xxl_job_group.
type Group struct {
	ID          int
	AppName     string
	Title       string
	AddressType int     // 0 automatic registration, 1 manual
	AddressList *string // comma-separated addresses
	UpdateTime  *time.Time
}

// JobInfo is a row of xxl_job_info.
type JobInfo struct {
	ID                     int
	JobGroup               int
	JobDesc                string
	AddTime                *time.Time
	UpdateTime             *time.Time
	Author                 *string
	AlarmEmail             *string
	ScheduleType           string
	ScheduleConf           *string
	MisfireStrategy        string
	ExecutorRouteStrategy  *string
	ExecutorHandler        *string
	ExecutorParam          *string
	ExecutorBlockStrategy  *string
	ExecutorTimeout        int
	ExecutorFailRetryCount int
	GlueType               string
	GlueSource             *string
	GlueRemark             *string
	GlueUpdatetime         *time.Time
	ChildJobID             *string
	TriggerStatus          int
	TriggerLastTime        int64 // epoch ms
	TriggerNextTime        int64 // epoch ms
	// ScheduleTimezone is the optional schedule_timezone column: nil (NULL)
	// is the admin's zone, else an IANA id; always nil on a database
	// without the column.
	ScheduleTimezone *string
}

// JobLog is a row of xxl_job_log.
type JobLog struct {
	ID                     int64
	JobGroup               int
	JobID                  int
	ExecutorAddress        *string
	ExecutorHandler        *string
	ExecutorParam          *string
	ExecutorShardingParam  *string
	ExecutorFailRetryCount int
	TriggerTime            *time.Time
	TriggerCode            int
	TriggerMsg             *string
	HandleTime             *time.Time
	HandleCode             int
	HandleMsg              *string
	AlarmStatus            int
}

// LogGlue is a row of xxl_job_logglue (GLUE source history).
type LogGlue struct {
	ID         int
	JobID      int
	GlueType   *string
	GlueSource *string
	GlueRemark string
	AddTime    *time.Time
	UpdateTime *time.Time
}

// LogReport is a row of xxl_job_log_report.
type LogReport struct {
	ID           int
	TriggerDay   *time.Time
	RunningCount int
	SucCount     int
	FailCount    int
}

// Registry is a row of xxl_job_registry.
type Registry struct {
	ID            int
	RegistryGroup string
	RegistryKey   string
	RegistryValue string
	UpdateTime    *time.Time
}

// User is a row of xxl_job_user.
type User struct {
	ID         int
	Username   string
	Password   string // lowercase hex: MD5 (2.4) or SHA-256 (3.4) of the password
	Role       int    // 0 normal, 1 admin
	Permission *string
	// Token is the 3.4 login token (xxl_job_user.token): the random
	// signature of the user's one current login; nil on a 2.4 database
	// and for a user who never logged in, "" after a logout.
	Token *string
}

// LogCounts is the findLogReport aggregate for one time range.
type LogCounts struct {
	Total   int
	Running int
	Success int
}

// ReportTotal is queryLogReportTotal; Valid is false when the table is empty.
type ReportTotal struct {
	Running, Success, Fail int
	Valid                  bool
}

// Ptr returns a pointer to v, for building rows with nullable columns.
func Ptr[T any](v T) *T { return &v }
