package main

import "time"

const dateTime = "2006-01-02 15:04:05"

func pageScenarios(now time.Time) []scenario {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	weekAgo := today.AddDate(0, 0, -7)
	endOfToday := today.Add(24*time.Hour - time.Second)
	return []scenario{
		{
			name:        "pages_admin",
			description: "GET every console page as admin (only status, headers, <title> recorded).",
			logins:      asAdmin,
			calls: []call{
				pageGET("/", "admin"),
				pageGET("/dashboard", "admin"),
				pageGET("/jobinfo", "admin"),
				pageGET("/jobinfo?jobGroup=2", "admin"),
				pageGET("/joblog", "admin"),
				pageGET("/joblog?jobId=2", "admin"),
				pageGET("/joblog?jobGroup=3", "admin"),
				pageGET("/joblog?jobGroup=3&jobId=3", "admin"),
				pageGET("/jobgroup", "admin"),
				pageGET("/user", "admin"),
				pageGET("/help", "admin"),
				pageGET("/jobcode?jobId=4", "admin"),
				pageGET("/joblog/logDetailPage?id=1", "admin"),
				pageGET("/joblog/logDetailPage?id=4", "admin"),
				pageGET("/errorpage", "admin"),
			},
		},
		{
			name:        "pages_errors",
			description: "Pages that end on the admin's error page as admin: unknown job/log ids, BEAN job in GLUE IDE, missing or malformed parameters, unknown path.",
			logins:      asAdmin,
			calls: []call{
				pageGET("/jobcode?jobId=999", "admin"),
				pageGET("/jobcode?jobId=2", "admin").n("BEAN job in the GLUE IDE"),
				pageGET("/joblog/logDetailPage?id=99999", "admin"),
				pageGET("/joblog?jobId=999", "admin"),
				pageGET("/jobcode", "admin").n("jobId missing"),
				pageGET("/jobinfo?jobGroup=abc", "admin").n("jobGroup not a number"),
				pageGET("/jobinfo?jobGroup=999", "admin").n("unknown jobGroup: the page falls back to all groups"),
				pageGET("/nope", "admin").n("unknown path"),
			},
		},
		{
			name:        "chartInfo",
			description: "POST /chartInfo: the dashboard's default range (last week), a range without report rows, no parameters, a malformed date.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/chartInfo", "admin", kv("startDate", weekAgo.Format(dateTime), "endDate", endOfToday.Format(dateTime))).
					n("UI default (recent week)"),
				ajaxPOST("/chartInfo", "admin", kv("startDate", "2020-01-01 00:00:00", "endDate", "2020-01-03 23:59:59")).
					n("range without rows"),
				ajaxPOST("/chartInfo", "admin", nil).n("no parameters"),
				ajaxPOST("/chartInfo", "admin", kv("startDate", "2020-01-01", "endDate", "bad")).n("malformed dates"),
			},
		},
		{
			name:        "http_methods_and_binding",
			description: "Method and parameter-binding edge cases: GET on JSON endpoints, POST-only mappings, missing, malformed or unbracketed ids[], missing int parameters.",
			logins:      asAdmin,
			calls: []call{
				call{kind: ajax, path: "/jobinfo/pageList?jobGroup=2&triggerStatus=-1&jobDesc=&executorHandler=&author=", as: "admin"}.
					withMethod("GET").n("GET works on mappings without a method"),
				call{kind: ajax, path: "/jobinfo/pageList?jobGroup=2&triggerStatus=-1", as: "admin"}.
					withMethod("GET").n("required String parameters missing"),
				formPOST("/auth/logout", "admin", nil).withMethod("GET").n("POST-only mapping"),
				ajaxPOST("/jobgroup/delete", "admin", nil).n("ids[] missing"),
				ajaxPOST("/jobgroup/delete", "admin", ids("abc")).n("ids[] not a number"),
				ajaxPOST("/jobgroup/delete", "admin", kv("ids", "4")).n("ids without brackets (jQuery traditional encoding)"),
				ajaxPOST("/jobinfo/start", "admin", ids("2,7")).n("two ids in one ids[] value, comma-separated").db("job"),
				ajaxPOST("/joblog/logDetailCat", "admin", kv("logId", "1")).n("fromLineNum missing"),
				ajaxPOST("/jobinfo/trigger", "admin", kv("id", "2")).n("executorParam and addressList missing"),
			},
		},
	}
}
