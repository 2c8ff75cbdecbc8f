package main

// fakeExecutorInfo describes how the fake executor answered
// (consolereplay.Executor342).
const fakeExecutorInfo = `(answers like a 3.4.2 executor, xxl-tool Response serialised by Gson: /run, /beat, /idleBeat {"code":200,"msg":"Success"}; /kill {"code":200,"msg":"Success","data":"job thread already killed."}; /log from line 1 with data {fromLineNum, toLineNum: 2, logContent: lines 'line1', 'line2 <b>&'"', isEnd (false for log 3)}, no lines after that; for log 5 the key 'end' instead of 'isEnd')`

// userInfo describes the users whose sessions a scenario uses.
var userInfo = map[string]string{
	"admin":     "id 1, role 1 (seed), password 123456",
	"normal1":   "id 2, role 0, permission '2', password 123456",
	"victim1":   "id 3, role 0, permission '3', password 123456",
	"pwduser":   "id 61, role 0, permission '2', password 123456 (inserted by the recorder before auth_updatePwd)",
	"spaceuser": "id 62, role 0, permission ' 2' (leading space), password 123456 (inserted by the recorder)",
	"nogroups":  "id 63, role 0, permission '' (empty), password 123456 (inserted by the recorder)",
}

// commonVolatile are the values that differ between runs in every
// scenario (README "Volatile values").
var commonVolatile = []string{
	"exchanges[*].request.headers[Host], setup.admin_url: the admin's port",
	"exchanges[*].response.headers[Date]",
	"exchanges[*].response.headers[Location]: absolute, with the admin's origin",
	"exchanges[*].request.headers[Cookie], exchanges[*].response.headers[Set-Cookie] value of xxl_job_login_token: base64url of {userId, expireTime, signature}, the signature random per login; Expires",
	"setup.logins[*].cookie",
	"exchanges[*].response.headers[Content-Length] where the body contains volatile values",
	"exchanges[*].response.body / body_json: addTime, updateTime, glueUpdatetime, triggerTime, handleTime, triggerNextTime, triggerLastTime (times relative to the recording run)",
	"exchanges[*].response.body_json token of /user/pageList rows (the random signature of the user's last login)",
	"exchanges[*].db_after.*: add_time, update_time, glue_updatetime, trigger_time, handle_time, trigger_next_time, trigger_last_time, token, auto-increment ids of rows created during the run",
	"setup.recorded_at, setup.fixture_at",
}
