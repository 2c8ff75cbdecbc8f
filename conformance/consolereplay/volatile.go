package consolereplay

import (
	"encoding/json"
	"strings"
)

// rule says how one value is compared. The recordings name the values
// that differ between runs (README "Volatile values", each file's
// volatile_fields); they are compared by shape or by time relative to the
// fixture instead of by value, never skipped outright.
type rule int

const (
	exact rule = iota
	// relTime: a date written by the admin "now" or by the fixture relative
	// to its time: both must parse in the recorded layout and lie at the
	// same distance from their run's fixture time (± timeSlack) — or at the
	// same instant, for the seed rows' fixed dates. This still catches a
	// wrong zone or format.
	relTime
	// epochTime: relTime for epoch milliseconds (the dates the admin sends
	// to the executor: logDateTime, glueUpdatetime).
	epochTime
	// shape: same JSON type; numbers and digit strings both zero or both
	// not; other strings with the same layout (digits ignored). For ids and
	// the next/last trigger times.
	shape
	// shapeList: a list of dates (nextTriggerTime): same length, each
	// element the same shape.
	shapeList
	// typeOnly: same JSON type (chartInfo: day lists and counts depend on
	// the admin's report thread and the day).
	typeOnly
	// alarmRace: the alarm_status of a row whose trigger failed during the
	// run. The admin's fail monitor (a pass every 10 s) moves it from 0 to
	// -1 (locked) and then 2 (no alarm e-mail), whenever its pass falls:
	// before the recorder read the row or after, and so in the replay.
	alarmRace
	// autoAddress: the address_list of an automatically registered group.
	// The registry monitor (every 30 s) rewrites "" to NULL; the recorder's
	// run was short enough to see "", a replay may not be.
	autoAddress
	// randomToken: 3.4.2's stored login token (xxl_job_user.token, and the
	// token member /user/pageList passes on), random per login: equal
	// (null, or "" after a logout), or both 32 lowercase hex digits.
	randomToken
)

// Dates of these body keys and columns are volatile (README).
var (
	bodyTimeKeys = map[string]bool{"addTime": true, "updateTime": true, "glueUpdatetime": true,
		"triggerTime": true, "handleTime": true}
	dbTimeColumns = map[string]bool{"add_time": true, "update_time": true, "glue_updatetime": true,
		"trigger_time": true, "handle_time": true}
)

// bodyRule picks the rule of key inside obj (the recorded object holding
// it) at path (the parent's path) of a JSON answer from endpoint.
func bodyRule(endpoint, path, key string, obj map[string]any) rule {
	switch {
	case strings.HasPrefix(path, "executor_calls") &&
		(key == "logDateTime" || key == "logDateTim" || key == "glueUpdatetime"):
		return epochTime
	case bodyTimeKeys[key]:
		return relTime
	case key == "triggerNextTime" || key == "triggerLastTime":
		return shape
	case path == "body" && key == "timestamp" && obj["error"] != nil:
		return relTime // Spring Boot error body
	case endpoint == "/jobinfo/nextTriggerTime" && path == "body" && (key == "content" || key == "data"):
		return shapeList
	case endpoint == "/chartInfo" && (path == "body.content" || path == "body.data"):
		return typeOnly
	case endpoint == "/jobinfo/add" && path == "body" && key == "content",
		endpoint == "/jobinfo/insert" && path == "body" && key == "data":
		return shape // the new job id
	case endpoint == "/user/pageList" && key == "token":
		return randomToken
	case key == "alarmStatus" && numberIs(obj["triggerCode"], "500") &&
		(numberIs(obj["alarmStatus"], "0") || numberIs(obj["alarmStatus"], "-1") || numberIs(obj["alarmStatus"], "2")):
		return alarmRace
	case key == "addressList" && numberIs(obj["addressType"], "0"):
		return autoAddress
	}
	return exact
}

// dbRule picks the rule of a db_after column of a recorded row.
func dbRule(column string, row map[string]*string) rule {
	switch {
	case dbTimeColumns[column]:
		return relTime
	case column == "trigger_next_time" || column == "trigger_last_time" || column == "id":
		return shape // ids of rows created during the run are volatile (README)
	case column == "token":
		return randomToken
	case column == "alarm_status" && textIs(row["trigger_code"], "500") &&
		(textIs(row["alarm_status"], "0") || textIs(row["alarm_status"], "-1") || textIs(row["alarm_status"], "2")):
		return alarmRace
	case column == "address_list" && textIs(row["address_type"], "0"):
		return autoAddress
	}
	return exact
}

func numberIs(v any, s string) bool {
	n, ok := v.(json.Number)
	return ok && n.String() == s
}

func textIs(v *string, s string) bool { return v != nil && *v == s }

// skeleton is a value's layout with every digit replaced by "d".
func skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'd'
		}
		return r
	}, s)
}

// digitsOnly reports whether s is a non-empty run of decimal digits.
func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// sameShape compares two scalar values by shape.
func sameShape(want, got any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case json.Number:
		g, ok := got.(json.Number)
		return ok && (w.String() == "0") == (g.String() == "0")
	case string:
		g, ok := got.(string)
		if !ok {
			return false
		}
		if digitsOnly(w) {
			return digitsOnly(g) && (w == "0") == (g == "0")
		}
		return skeleton(w) == skeleton(g)
	}
	return jsonType(want) == jsonType(got)
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}
