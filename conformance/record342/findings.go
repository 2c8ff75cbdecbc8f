package main

// findings are what the recordings of each scenario show, written after
// reading them (every language); i18n keys stand for the bundle texts.
// The recorder adds the header names and content types it saw.
var findings = map[string][]string{
	"login_failures": {
		"Answers are xxl-tool's Response serialised by Jackson, members in alphabetical order: {\"code\":500,\"data\":null,\"msg\":<text>,\"success\":false} (2.4.2: ReturnT {code, msg, content}).",
		"Wrong password and unknown user give login_param_invalid; empty, blank or missing fields give login_param_empty.",
		"GET /auth/doLogin is HTTP 405 with Allow: POST and the admin's HTML error page ('HTTP Status Code: 405'); 2.4.2 redirected GET /login to /toLogin.",
	},
	"login_success": {
		"Login answers {\"code\":200,\"data\":null,\"msg\":\"Success\",\"success\":true} and sets xxl_job_login_token: base64url without padding of {\"userId\":\"<id>\",\"expireTime\":0,\"signature\":\"<32 hex digits>\"}; Path=/; HttpOnly, plus Expires and Max-Age=2147483647 only with ifRemember=on. The signature is stored in xxl_job_user.token (2.4.2: XXL_JOB_LOGIN_IDENTITY, the hex of the user row, nothing stored).",
		"One session per user: every login overwrites the user's token, so the first session is refused after two more logins (HTTP 200, {\"code\":500,\"msg\":\"com.xxl.sso.core.exception.XxlSsoException: not login for path:/jobinfo/pageList\"} with Content-Type application/json;charset=UTF-8 and a Set-Cookie clearing the cookie).",
		"'ADMIN' logs in as admin (the user lookup uses the column's case-insensitive collation); the token names the row's id.",
		"GET /auth/login with a valid session answers 303 with the relative Location '/'.",
	},
	"logout": {
		"Logout clears xxl_job_user.token (to '', not NULL) and answers code 200 with 'xxl_job_login_token=; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/; HttpOnly' (no Max-Age).",
		"The ended session's cookie is refused afterwards: JSON calls get the XxlSsoException answer, pages a 302 to the login page, both with the clearing Set-Cookie (2.4.2: the cookie stayed valid after logout).",
		"Logout without a cookie answers code 200 without Set-Cookie; logout with an ended session still answers code 200.",
		"GET /auth/logout is HTTP 405 (Allow: POST) with the HTML error page.",
	},
	"not_logged_in": {
		"Anonymous JSON calls answer HTTP 200 {\"code\":500,\"msg\":\"com.xxl.sso.core.exception.XxlSsoException: not login for path:<path>\"}: written by the exception resolver with Gson (no data/success members, a trailing newline, Content-Type application/json;charset=UTF-8), not translated. 2.4.2 redirected JSON calls like pages.",
		"Anonymous pages answer 302 with an absolute Location, http://<host>/auth/login (2.4.2: the path /xxl-job-admin/toLogin).",
		"Every invalid token (not base64, not JSON, without signature, wrong signature, unknown user id) gets the same answer plus a Set-Cookie clearing the cookie; a token whose userId is not a number fails with the java.lang.NumberFormatException text and no Set-Cookie.",
		"/static/** and /errorpage need no login (/errorpage shows 'HTTP Status Code: 200'); an unknown path is HTTP 404 with the error page ('HTTP Status Code: 404').",
	},
	"auth_updatePwd": {
		"An empty new password is reported as system_please_input + change_pwd_field_oldpwd: the old password's label (the controller uses that key for both fields).",
		"Lengths 4–20 after trimming (system_length_limit + '[4-20]'); a wrong old password gives change_pwd_field_oldpwd + system_invalid; success stores the SHA-256 hex of the trimmed password.",
		"The session survives the password change (the token is not touched); the old password no longer logs in, the new one does.",
		"/auth/updatePwd has no method restriction: a GET with query parameters changes the password too.",
		"Without login: the XxlSsoException answer of not_logged_in.",
	},
	"pages_admin": {
		"Every page has the same <title> (the i18n admin_name with '｜XXL-JOB'); 3.4.2 adds /dashboard as a page of its own (the index loads pages in tabs).",
		"/errorpage requested directly shows 'HTTP Status Code: 200'.",
	},
	"pages_errors": {
		"Exceptions in page handlers render the error page with HTTP 200 and exception.toString() (java.lang.RuntimeException: <key text>).",
		"A missing or malformed request parameter is HTTP 400 with the error page showing 'HTTP Status Code: 400' (2.4.2: an IllegalStateException text for a missing int).",
		"An unknown jobGroup on /jobinfo renders the page (the filter falls back to all groups); an unknown path is the 404 error page.",
	},
	"chartInfo": {
		"The data map is a Java HashMap: key order triggerCountFailTotal, triggerDayList, triggerDayCountRunningList, triggerCountSucTotal, triggerDayCountFailList, triggerCountRunningTotal, triggerDayCountSucList; without report rows in the range it lists the last 7 days with zeros.",
		"Missing or malformed dates are HTTP 400 with the HTML error page (2.4.2: no parameters gave the default range).",
		"/chartInfo carries no @XxlSso annotation: it still needs a login (the interceptor's default) but checks no group, so normal users see the counts of every group (perm_other_group, pages_user_without_groups).",
	},
	"http_methods_and_binding": {
		"Binding errors (a missing required parameter, a non-numeric value, ids without brackets) are HTTP 400 with the HTML error page, on JSON endpoints too (2.4.2: Spring's JSON error body or an IllegalStateException text).",
		"Mappings without a method answer GET (with every required parameter); POST-only mappings answer 405.",
		"ids[]=2,7 (one value) is split on the comma by Spring's conversion: two ids, so 'please choose one' (system_please_choose + system_one + system_data).",
	},
	"jobgroup_pageList": {
		"Lists are PageModel inside data: {\"data\":[...],\"offset\":0,\"pagesize\":0,\"total\":N} (offset/pagesize are not filled in); the page sends offset/pagesize (2.4.2: start/length, DataTables' recordsTotal/recordsFiltered/data).",
		"Dates of groups, jobs and users are written by Jackson as 'yyyy-MM-dd HH:mm:ss' in UTC (spring.jackson.date-format without a time zone): 8 hours behind the admin's zone and the database.",
	},
	"jobgroup_insert": {
		"Success answers code 200 msg Success; an automatic group stores address_list NULL (no registered executor).",
	},
	"jobgroup_insert_validation": {
		"Markup is refused only when it matches XssUtil's patterns (script tags, javascript:, on...= handlers, ...): appname 'ab<cd>' with title '<b>bold</b>' is stored (2.4.2 refused any < or >).",
		"Manual addresses must start with http:// or https:// (jobgroup_field_registryList_invalid + '[2]'), new in 3.x.",
		"A title longer than the column (varchar 64; 2.4.2: 12) is not validated: the DB error comes back through the exception resolver as {code:500, msg:<exception text>} (Content-Type application/json;charset=UTF-8, text of the JDBC driver).",
		"A non-numeric addressType is HTTP 400 with the error page.",
	},
	"jobgroup_update": {
		"An unknown or missing id answers {code:500, msg:'Fail'} (Response.ofFail(): the generic failure text, not translated).",
		"Automatic registration rebuilds address_list from the registry (NULL without executors); the other checks are those of insert.",
	},
	"jobgroup_loadById": {
		"An unknown id answers {\"code\":500,\"data\":null,\"msg\":\"Fail\",\"success\":false} (2.4.2: msg null).",
	},
	"jobgroup_delete": {
		"The page sends ids[]; exactly one id is accepted, several give system_please_choose + system_one + system_data and delete nothing.",
		"An unknown id answers success (2.4.2: code 500); a group with jobs is refused with jobgroup_del_limit_0.",
	},
	"jobinfo_pageList": {
		"Missing jobGroup/triggerStatus is HTTP 400 with the error page; jobGroup 0 and -1 both list every group for admin.",
		"Job members are in alphabetical order (Jackson); addTime/updateTime/glueUpdatetime in UTC (see jobgroup_pageList).",
	},
	"jobinfo_insert": {
		"data is the new id as a JSON string; the handler is trimmed; \\r is removed from GLUE_SHELL sources; markup in jobDesc/author is stored as is (XssUtil is not applied to them).",
	},
	"jobinfo_insert_validation": {
		"The checks and their order are 2.4.2's /jobinfo/add; FIX_RATE without scheduleConf answers schedule_type alone; FIX_DELAY is still refused; non-numeric executorTimeout or jobGroup is HTTP 400 with the error page.",
	},
	"jobinfo_update": {
		"Update does not check the BEAN handler: job 7 is saved with an empty one.",
		"An unknown id gives jobinfo_field_id + system_not_found, an unknown group jobinfo_field_jobgroup + system_invalid, the job as its own child jobinfo_field_childJobId + '(7)' + system_invalid.",
	},
	"jobinfo_start_stop": {
		"The page sends ids[]; several ids give 'please choose one' and change nothing; no ids is HTTP 400.",
		"An unknown id answers jobinfo_glue_jobid_invalid (2.4.2: a NullPointerException text).",
	},
	"jobinfo_trigger": {
		"Run once answers code 200 at once; the log row appears asynchronously. trigger_msg ends with '<br><br>' + joblog_field_executorAddress + '：<address><br>JobHandler：<handler><br>' + jobinfo_field_executorparam + '：<param><br>' + joblog_field_triggerMsg + '：success' (2.4.2 showed the executor answer's code and msg).",
		"The admin sends /run with its access token; the request's members are 2.4.2's.",
	},
	"jobinfo_nextTriggerTime": {
		"An empty scheduleConf answers code 200 with an empty list (2.4.2: the cron parser's error); errors are schedule_type + system_invalid + the exception message, no separator; times are 'yyyy-MM-dd HH:mm:ss' in the admin's zone.",
	},
	"jobinfo_delete": {
		"The page sends ids[]; several ids give 'please choose one' and delete nothing; an unknown id answers success.",
	},
	"joblog_pageList": {
		"Rows are XxlJobLogDTO: triggerTime/handleTime are 'yyyy-MM-dd HH:mm:ss' strings in the admin's zone (unlike the UTC dates of jobs and groups); rows are ordered by id DESC (2.4.2: trigger_time DESC).",
		"jobGroup also filters when jobId is set: a job of another group lists nothing (2.4.2 ignored jobGroup then).",
		"Missing logStatus/filterTime is HTTP 400 with the error page.",
	},
	"joblog_logDetailCat": {
		"logContent is HTML-escaped except <b>, </b> and <br> (kept as tags); & ' \" are escaped.",
		"The executor's 3.x answer is read with Gson into LogResult (field isEnd): an answer with the key 'end' counts as false. The admin's answer uses 'end'.",
		"A row without executor address answers {code:500, msg:<NullPointerException message>} in a normal Response (the controller catches it).",
	},
	"joblog_logKill": {
		"Kill sends /kill {jobId} to the log's executor; on code 200 the log is completed with handle_code 500 and handle_msg joblog_kill_log_byman + ':' + the executor's msg ('Success' from a 3.x executor), and the answer's data is that msg.",
		"A log whose trigger failed is refused (joblog_kill_log_limit); a finished log is killed all the same (its handle_code becomes 500).",
		"An unknown log id fails with the NullPointerException text through the exception resolver.",
	},
	"jobcode_save": {
		"A missing glueRemark is HTTP 400; a remark matching XssUtil gives jobinfo_glue_remark + system_invalid; an empty source gives system_please_input + jobinfo_glue_source (new); a BEAN job's source is overwritten as in 2.4.2.",
	},
	"joblog_clearLog": {
		"Types 4, 3, 2, 1 delete the rows older than 1 year, 6, 3 and 1 month(s); 5–8 keep the newest N; 9 deletes every row of the group; 0 and 10 give joblog_clean_type_invalid (as 2.4.2).",
	},
	"user_pageList": {
		"Rows carry the token column: password is nulled, the token (the signature of each user's current session) is not. With the user id it forms a valid cookie, so an admin can act as any logged-in user.",
	},
	"user_insert": {
		"The dialog sends one permission field per checked group; Spring joins them with ',' ('2,3').",
		"Username and password are trimmed; 'Bad<User>' is accepted; a non-numeric role is HTTP 400.",
	},
	"user_update": {
		"The self-protection compares the submitted username: the own id under another username updates the own row (role, permission).",
		"The username is never written; a blank password keeps the hash; an unknown id answers success.",
	},
	"user_delete": {
		"The page sends ids[]; own account refused by id (user_update_loginuser_limit); several ids give 'please choose one'; an unknown id answers success.",
	},
	"perm_normal_user_admin_only": {
		"Admin-only endpoints and pages answer 'com.xxl.sso.core.exception.XxlSsoException: permission limit, current login-user does not have role:ADMIN' (not translated; JSON through the exception resolver, pages on the error page). 2.4.2: java.lang.RuntimeException: <system_permission_limit>.",
		"/jobgroup/loadById is open to every logged-in user and checks no group: normal1 reads group 3's addresses.",
	},
	"perm_other_group": {
		"Refused for a group outside the user's permission (fixed since 2.4.2): log detail page and text, kill, GLUE IDE page and save, run once, start, stop, delete, insert, a child job of another group, job and log lists (also jobGroup=0), clearLog.",
		"Three forms of the refusal: checks in controllers throw, answered as 'java.lang.RuntimeException: <system_permission_limit>[username=normal1]' by the exception resolver (pages: the error page); checks in the service answer system_permission_limit in a normal Response; logDetailCat catches the exception and answers its message without the class.",
		"Not checked: /jobinfo/update checks the group named in the form, not the job's current group: normal1 moved group 3's job 3 into group 2 (and rewrote it). /chartInfo shows every group's counts.",
		"The pages fall back to the user's own groups: /jobinfo?jobGroup=3 and /joblog?jobId=3 render without group 3's data.",
	},
	"perm_permission_whitespace": {
		"StringTool.split trims every item: permission ' 2' grants group 2 on the page, run once, add and the log list (2.4.2 was inconsistent: add and log list refused).",
	},
	"pages_user_without_groups": {
		"An empty permission field makes StringTool.split return null: /jobinfo and /joblog show 'java.lang.NullPointerException: Cannot invoke \"java.util.List.contains(Object)\" because \"jobGroups\" is null', /jobinfo/pageList answers that text (2.4.2: jobgroup_empty on the pages, no check on the list).",
		"The index, help and dashboard render; the dashboard chart shows every group's counts.",
	},
}

// extraVolatile are the values beyond commonVolatile that differ between
// runs, per scenario.
var extraVolatile = map[string][]string{
	"chartInfo": {
		"exchanges[*].response.body_json.data: day lists and counts (relative to the recording day; the admin's log-report thread rewrites the report rows)",
		"exchanges[*].request.body/form startDate, endDate (the recording day)",
	},
	"perm_other_group":          {"exchanges[*].response.body_json.data of /chartInfo", "exchanges[*].request.body/form startDate, endDate"},
	"pages_user_without_groups": {"exchanges[*].response.body_json.data of /chartInfo", "exchanges[*].request.body/form startDate, endDate", "the NullPointerException texts (JDK 17 helpful messages)"},
	"jobinfo_nextTriggerTime":   {"exchanges[*].response.body_json.data: the times (relative to the request)"},
	"jobinfo_insert":            {"exchanges[*].response.body_json.data: the new job id"},
	"jobinfo_trigger": {
		"setup.fake_executor_calls[*].body_json logDateTime, glueUpdatetime, logId",
		"the admin's own address in trigger_msg, recorded as 192.0.2.2",
	},
	"joblog_pageList":            {"exchanges[*].request.body/form filterTime (the recording day)"},
	"joblog_logDetailCat":        {"the NullPointerException message of exchange 6 (JDK 17 helpful message)"},
	"joblog_logKill":             {"the NullPointerException text of exchange 3 (JDK 17 helpful message)"},
	"jobgroup_insert_validation": {"the JDBC driver's error text of exchange 12"},
	"not_logged_in":              {"the NumberFormatException text of exchange 11"},
}
