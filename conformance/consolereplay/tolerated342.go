package consolereplay

import (
	"strings"
)

// Tolerances342 are the deliberate differences of our 3.x console from the
// Java admin 3.4.2, each with its reason; TestReplayOurs342 accepts them.
// The recordings' README ("Findings worth a look") describes the Java side.
var Tolerances342 = []Tolerance{
	// The login (session34.go).
	{Scenario: "auth_updatePwd", Exchanges: []int{5, 10}, Field: "cookie " + TokenCookie342,
		Reason: "a password change ends the user's other sessions in ours (3.4.2 keeps them): the session that changed it gets a new token"},
	{Scenario: "not_logged_in", Exchanges: []int{11}, Field: "body.msg", Accept: cleanMessage,
		Reason: "a token whose user id is not a number: 3.4.2 answers its NumberFormatException; ours treats it as not logged in"},
	{Scenario: "not_logged_in", Exchanges: []int{11}, Field: "cookie " + TokenCookie342,
		Reason: "same exchange: ours clears the cookie that names no login, as for every other invalid token"},
	{Scenario: "not_logged_in", Exchanges: []int{12}, Field: "status",
		Reason: "a file of the Java console's static/: ours serves its own page scripts and styles, not the Java console's files"},
	{Scenario: "not_logged_in", Exchanges: []int{12}, Field: "body (of the other status)",
		Reason: "same exchange: ours answers 404 for a file it does not have"},

	// Java's internal exception texts are not part of the contract (the
	// recordings' README, "Volatile values"): ours answers a clean message.
	{Scenario: "joblog_logDetailCat", Exchanges: []int{6}, Field: "body.msg", Accept: cleanMessage,
		Reason: "log row without executor address: 3.4.2 answers its NullPointerException message; ours says the trigger failed (joblog_rolling_log_triggerfail)"},
	{Scenario: "joblog_logKill", Exchanges: []int{3}, Field: "body.msg", Accept: cleanMessage,
		Reason: "unknown log id: 3.4.2 answers its NullPointerException text; ours joblog_logid_invalid, in the same exception shape"},
	{Scenario: "jobgroup_insert_validation", Exchanges: []int{12}, Field: "body.msg", Accept: cleanMessage,
		Reason: "title longer than the column: 3.4.2 passes the JDBC driver's error through; ours refuses it up front (title + system_length_limit[0-64]), the same on every backend"},
	{Scenario: "jobgroup_insert_validation", Exchanges: []int{12}, Field: "header Content-Type", Accept: jsonContentType,
		Reason: "same exchange: ours answers the refusal as a controller's Response, not through the exception resolver"},
	{Scenario: "jobgroup_insert_validation", Exchanges: []int{12}, Field: "body.data",
		Accept: func(m Mismatch) bool { return m.Want == "(absent)" && m.Got == "null" }, Reason: "same exchange: the Response's data"},
	{Scenario: "jobgroup_insert_validation", Exchanges: []int{12}, Field: "body.success",
		Accept: func(m Mismatch) bool { return m.Want == "(absent)" && m.Got == "false" }, Reason: "same exchange: the Response's success"},
	{Scenario: "pages_user_without_groups", Exchanges: []int{4}, Field: "body.msg", Accept: cleanMessage,
		Reason: "a user with an empty permission: 3.4.2 fails with a NullPointerException; ours answers the permission refusal"},

	// Ours keeps the stricter rules of the 2.x console where 3.4.2 is laxer.
	{Scenario: "user_pageList", Field: "body.data.data[*", Accept: tokenHidden,
		Reason: "3.4.2 lists every user's login token, which with the user id is a valid login cookie; ours answers null"},
	{Scenario: "perm_other_group", Exchanges: []int{19}, Field: "*",
		Reason: "update of another group's job naming an own group: 3.4.2 checks the form's group only and moves the job; ours also checks the job's current group and refuses"},
	{Scenario: "http_methods_and_binding", Exchanges: []int{0}, Field: "body.data.*",
		Reason: "consequence of perm_other_group[19]: in 3.4.2 group 3's job 3 was moved into group 2, so group 2 lists one job more"},

	// Timing and backend artifacts.
	{Scenario: "jobinfo_pageList", Exchanges: []int{7, 8}, Field: "body.data.data[7].*",
		Reason: "the seed job's dates: the release's script stamps them with MariaDB's now() in the server's zone (UTC here), which the jar reads as Asia/Shanghai, 8 h early; our SQLite seed stores the instant"},
	{Scenario: "http_methods_and_binding", Exchanges: []int{6}, Field: "db_after.job (rows)",
		Reason: "the recorder reads the job of ids[]=\"2,7\" with id = '2,7', which MariaDB casts to 2 and SQLite compares as text"},

	// The pages (pages34_*.go).
	{Scenario: "pages_user_without_groups", Exchanges: []int{0, 1}, Field: "error_page_message",
		Accept: func(m Mismatch) bool {
			return strings.Contains(m.Want, "NullPointerException") && strings.Contains(m.Got, "XxlJobException: ")
		},
		Reason: "a user whose permission is empty: the jar's filterJobGroupByPermission calls contains on StringTool.split's null and shows its NullPointerException; ours shows the jar's own answer for a user without executors (XxlJobException: jobgroup_empty), as for a permission naming no existing group"},
}

// tokenHidden accepts a null token in a user list row.
func tokenHidden(m Mismatch) bool {
	return strings.HasSuffix(m.Field, "].token") && m.Got == "null"
}
