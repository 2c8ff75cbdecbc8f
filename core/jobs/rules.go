package jobs

// Rules are the input rules in which the Java admins owning a database
// differ: the service keeps one code path and asks these where 3.4.2
// changed a check. The zero value is 2.4.2's.
type Rules struct {
	// ChildDigits reads a child job id as 3.4.2 does (StringTool.isNumeric,
	// then Integer.parseInt): Unicode decimal digits only, no sign, no
	// blanks. 2.4.2 reads it with Integer.valueOf ("+2" is job 2).
	ChildDigits bool
	// SelfChild refuses, on update, a child id naming the job itself.
	SelfChild bool
	// TrimHandler stores the JobHandler trimmed on add and update.
	TrimHandler bool
	// GroupXSS checks a group's AppName, title and address list against
	// XssUtil's patterns on save and update; 2.4.2 refuses "<" and ">",
	// on save only.
	GroupXSS bool
	// HTTPAddresses requires every manual executor address to start with
	// http: or https: (any case).
	HTTPAddresses bool
	// GroupTitleMax is the width of xxl_job_group.title when it is not
	// 2.4.2's 12 (3.4.2's schema: 64); a longer title is refused with the
	// column-limit message.
	GroupTitleMax int
	// GlueChecks refuses a blank GLUE source before the remark, and a
	// remark matching XssUtil's patterns after its length check.
	GlueChecks bool
	// RemoveGroupRegistry removes the executor registrations of a removed
	// group's AppName with it.
	RemoveGroupRegistry bool
}

// Rules242 are the 2.4.2 admin's rules (the zero value).
var Rules242 = Rules{}

// Rules342 are the 3.4.2 admin's rules (XxlJobServiceImpl,
// JobGroupController and JobCodeController of 3.4.2).
var Rules342 = Rules{ChildDigits: true, SelfChild: true, TrimHandler: true, GroupXSS: true, HTTPAddresses: true,
	GroupTitleMax: 64, GlueChecks: true, RemoveGroupRegistry: true}
