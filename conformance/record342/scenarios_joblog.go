package main

import (
	"strings"
	"time"
)

func joblogScenarios(now time.Time) []scenario {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	todayRange := today.Format(dateTime) + " - " + today.Add(24*time.Hour-time.Second).Format(dateTime)
	list := func(note, group, jobID, status, filterTime, offset, size string) call {
		return tablePOST("/joblog/pageList", "admin", logListQuery(group, jobID, status, filterTime, offset, size)).n(note)
	}
	cat := func(note, logID, from string) call {
		return ajaxPOST("/joblog/logDetailCat", "admin", kv("logId", logID, "fromLineNum", from)).n(note)
	}
	clear := func(typ string) call {
		return formPOST("/joblog/clearLog", "admin", kv("jobGroup", "4", "jobId", "0", "type", typ))
	}
	const glue4 = "#!/bin/bash\r\necho \"v2\"\n"
	save := func(note, id, remark string) call {
		return ajaxPOST("/jobcode/save", "admin", kv("id", id, "glueSource", glue4, "glueRemark", remark)).n(note)
	}
	return []scenario{
		{
			name:        "joblog_pageList",
			description: "POST /joblog/pageList with each filter the log page sends (filterTime as the date-range picker formats it), and job/group combinations.",
			logins:      asAdmin,
			calls: []call{
				list("group 2, all", "2", "0", "-1", "", "0", "10"),
				list("logStatus=1 success", "2", "0", "1", "", "0", "10"),
				list("logStatus=2 fail", "2", "0", "2", "", "0", "10"),
				list("logStatus=3 running", "2", "0", "3", "", "0", "10"),
				list("jobId=2", "2", "2", "-1", "", "0", "10"),
				list("filterTime today", "2", "0", "-1", todayRange, "0", "10"),
				list("filterTime malformed", "2", "0", "-1", "yesterday", "0", "10"),
				list("jobGroup=0 (admin: all groups)", "0", "0", "-1", "", "0", "10"),
				list("paging", "2", "0", "-1", "", "2", "2"),
				list("a job of another group than jobGroup: both filters apply", "2", "3", "-1", "", "0", "10"),
				list("group 3, job 3", "3", "3", "-1", "", "0", "10"),
				tablePOST("/joblog/pageList", "admin", kv("jobGroup", "2", "jobId", "0", "offset", "0", "pagesize", "10")).
					n("logStatus/filterTime missing"),
			},
		},
		{
			name:          "joblog_logDetailCat",
			description:   "POST /joblog/logDetailCat: proxied to the fake executor's /log (content HTML-escaped); unknown log id; a row without executor address.",
			logins:        asAdmin,
			executorCalls: true,
			calls: []call{
				cat("running log (handle_code 0); executor answers isEnd=false", "3", "1"),
				cat("running log, no new lines (fromLineNum > toLineNum), isEnd=false: end stays false", "3", "3"),
				cat("finished log; executor answers isEnd=true", "1", "1"),
				cat("finished log (handle_code 200), no new lines, executor isEnd=false: admin forces end=true", "1", "3"),
				cat("executor answers with key 'end' (not 'isEnd')", "5", "1"),
				cat("unknown log id", "99999", "1"),
				cat("log row without executor address (inserted just before)", "20", "1"),
				cat("another group's log as admin (executor answers normally)", "7", "1"),
			},
		},
		{
			name:          "joblog_logKill",
			description:   "POST /joblog/logKill: a running log (kill sent to the executor, the log is completed as failed), a log whose trigger failed, a finished log, an unknown id.",
			logins:        asAdmin,
			executorCalls: true,
			calls: []call{
				ajaxPOST("/joblog/logKill", "admin", kv("id", "3")).n("running log").db("log"),
				ajaxPOST("/joblog/logKill", "admin", kv("id", "4")).n("trigger failed").db("log"),
				ajaxPOST("/joblog/logKill", "admin", kv("id", "1")).n("finished (successful) log: kill is sent all the same").db("log"),
				ajaxPOST("/joblog/logKill", "admin", kv("id", "99999")).n("unknown log id"),
			},
		},
		{
			name:        "jobcode_save",
			description: "POST /jobcode/save (GLUE IDE): success, remark missing/short/long/with script, unknown job, BEAN job.",
			logins:      asAdmin,
			calls: []call{
				save("", "4", "second version").db("job", "versions"),
				ajaxPOST("/jobcode/save", "admin", kv("id", "4", "glueSource", glue4)).n("glueRemark missing"),
				save("remark short", "4", "abc"),
				save("remark long (101)", "4", strings.Repeat("r", 101)),
				save("remark with a script tag", "4", "<script>alert(1)</script>"),
				ajaxPOST("/jobcode/save", "admin", kv("id", "4", "glueSource", "", "glueRemark", "remark")).n("empty source"),
				save("unknown job", "9999", "remark"),
				save("BEAN job (not checked by save)", "2", "remark").db("job"),
			},
		},
		{
			name:        "joblog_clearLog",
			description: "POST /joblog/clearLog on group 4 (rows inserted just before: 2×40, 2×100, 2×200, 2×400 days old): each type in turn, then invalid types.",
			logins:      asAdmin,
			calls: []call{
				clear("4").db("group4_logs"),
				clear("3").db("group4_logs"),
				clear("2").db("group4_logs"),
				clear("1").db("group4_logs"),
				clear("5").db("group4_logs"),
				clear("6").db("group4_logs"),
				clear("7").db("group4_logs"),
				clear("8").db("group4_logs"),
				clear("5").n("two fresh rows inserted before this call").db("group4_logs"),
				clear("9").db("group4_logs"),
				clear("0"),
				clear("10"),
			},
		},
	}
}
