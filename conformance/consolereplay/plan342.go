package consolereplay

import "slices"

// plan342 is the 3.4.2 recorder's order (conformance/record342 runs these
// steps, hooks included, so recorder and replay cannot drift apart): the
// scenarios of the 2.4.2 list mapped to the 3.4.2 endpoints, plus what
// 3.4.2 added. Unlike the 2.4.2 recordings nothing was held back, so every
// change of the database is either a recorded exchange or one of the
// recorder's own inserts below. Users the scenarios add by SQL have fixed
// ids (60–63), so every language sees the same rows.
var plan342 = []Step{
	{Scenario: "login_failures"},
	{Scenario: "login_success"},
	{Scenario: "logout"},
	{Scenario: "not_logged_in"},
	{Scenario: "pages_admin"},
	{Scenario: "pages_errors"},
	{Scenario: "chartInfo"},
	{Scenario: "jobgroup_pageList"},
	{Scenario: "jobgroup_insert"},
	{Scenario: "jobgroup_insert_validation"},
	{Scenario: "jobgroup_update"},
	{Scenario: "jobgroup_loadById"},
	{Scenario: "jobgroup_delete", Before: []Hook{emptyGroup50}},
	{Scenario: "jobinfo_pageList"},
	{Scenario: "jobinfo_insert"},
	{Scenario: "jobinfo_insert_validation"},
	{Scenario: "jobinfo_update"},
	{Scenario: "jobinfo_start_stop"},
	{Scenario: "jobinfo_trigger"},
	{Scenario: "jobinfo_nextTriggerTime"},
	{Scenario: "jobinfo_delete"},
	{Scenario: "joblog_pageList"},
	{Scenario: "joblog_logDetailCat", BeforeExchange: map[int][]Hook{6: {log20WithoutAddress}}},
	{Scenario: "joblog_logKill"},
	{Scenario: "jobcode_save"},
	{Scenario: "joblog_clearLog", BeforeExchange: map[int][]Hook{0: {group4OldLogs}, 8: {group4FreshLogs}}},
	{Scenario: "user_pageList"},
	{Scenario: "user_insert"},
	{Scenario: "user_update"},
	{Scenario: "user_delete", Before: []Hook{user60of342}},
	{Scenario: "auth_updatePwd", Before: []Hook{user61of342}},
	{Scenario: "perm_normal_user_admin_only"},
	{Scenario: "perm_other_group"},
	{Scenario: "http_methods_and_binding"},
	{Scenario: "perm_permission_whitespace", Before: []Hook{user62of342}, BeforeExchange: runOnceSettled(2, 3)},
	{Scenario: "pages_user_without_groups", Before: []Hook{user63of342}},
}

// zhTC342 are the scenarios recorded in zh_TC too: the validation and
// permission ones, as for 2.4.2.
var zhTC342 = []string{
	"login_failures", "login_success", "pages_errors",
	"jobgroup_insert_validation", "jobgroup_update", "jobgroup_delete",
	"jobinfo_insert_validation", "jobinfo_update", "jobinfo_start_stop", "jobinfo_nextTriggerTime",
	"joblog_logKill", "jobcode_save", "joblog_clearLog",
	"user_insert", "user_update", "user_delete", "auth_updatePwd",
	"perm_normal_user_admin_only", "perm_other_group", "pages_user_without_groups",
}

// Plans342 returns the 3.4.2 plan of every recorded language. Their
// fixture times are in the recordings (Setup.FixtureAt).
func Plans342() []Plan {
	var tc []Step
	for _, s := range plan342 {
		if slices.Contains(zhTC342, s.Scenario) {
			tc = append(tc, s)
		}
	}
	return []Plan{
		{Lang: "en", Steps: plan342},
		{Lang: "zh_CN", Steps: plan342},
		{Lang: "zh_TC", Steps: tc},
	}
}

// The recorder's users, as in 2.4.2 (hooks.go) with 3.x password hashes.
var (
	user60of342 = addUser342(60, "gone1", "123456", "",
		"user_delete removes user 60: inserted by the recorder just before")
	user61of342 = addUser342(61, "pwduser", "123456", "2",
		"auth_updatePwd: user 61 pwduser (permission 2) changes its own password")
	user62of342 = addUser342(62, "spaceuser", "123456", " 2",
		"perm_permission_whitespace: user 62 spaceuser with permission ' 2'")
	user63of342 = addUser342(63, "nogroups", "123456", "",
		"pages_user_without_groups: user 63 nogroups with an empty permission")
)
