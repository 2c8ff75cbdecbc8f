package consolereplay

import (
	"fmt"
	"time"
)

// Step is one scenario in the recorder's order with the database changes
// made before it or before one of its exchanges, or (Scenario empty) the
// effect of a held-back scenario that ran at that point.
type Step struct {
	Scenario       string
	Before         []Hook
	BeforeExchange map[int][]Hook
}

// Plan is the replay of one language: the scenarios in the order they ran
// against one admin process, each seeing the effects of the earlier ones.
type Plan struct {
	Lang string
	// FixtureAt is when the recorder loaded the fixture for this language:
	// fixture jobs and groups carry FixtureAt − 1 day (job 2's addTime in
	// jobinfo_pageList). Dates the recorder put into requests are moved by
	// the distance between FixtureAt and the replay's fixture time. Zero
	// means the recordings carry it (Setup.FixtureAt, 3.4.2).
	FixtureAt time.Time
	Steps     []Step
}

// Scenarios lists the scenario names of the plan in order.
func (p Plan) Scenarios() []string {
	var out []string
	for _, s := range p.Steps {
		if s.Scenario != "" {
			out = append(out, s.Scenario)
		}
	}
	return out
}

// The order below is the recorder's, reconstructed from the recordings
// (the README's table is alphabetical, and recorded_at has whole seconds
// only). Evidence, for en and zh_CN alike:
//
//   - Date headers: Tomcat caches the header and moves it forward only, so
//     an exchange dated :34 ran before every exchange dated :35. This
//     splits the run into blocks: login/logout/pages/chart/jobgroup (en
//     :26–27), jobinfo (:27–28), the trigger scenario with its waits
//     (:27–32), the rest of jobinfo and joblog, jobcode_save, clearLog and
//     the user scenarios (:34), then http_methods, perm_* and
//     pages_user_without_groups (:35). Spring error-body timestamps order
//     chartInfo (27.409) < jobgroup_save_validation (27.652) <
//     jobinfo_add_validation (28.220) < the first trigger's logDateTime
//     (28.422).
//   - Lists: jobgroup_pageList shows groups 1–4 only (before jobgroup_save,
//     whose groups 5 and 6 appear in jobgroup_save_validation's db_after);
//     jobinfo_pageList and logout[2] show jobs 1–8 only (before jobinfo_add,
//     before job 7 changed, before jobinfo_remove); user_pageList shows
//     users 1–3 (before user_add); joblog_getJobsByGroup shows job 4's
//     original GLUE source (before jobcode_save) and no job 8 (after
//     jobinfo_remove); joblog_pageList shows logs 1–10 only (after
//     jobinfo_trigger; log 20 of joblog_logDetailCat not there);
//     perm_normal_user_admin_only's db_after has users 1–5 and 61 but not
//     62/63 (the users of perm_permission_whitespace and
//     pages_user_without_groups); http_methods_and_binding[0] shows job 15.
//   - jobinfo_start_stop's db_after shows job 2 with its original GLUE
//     source, so it ran before jobcode_save (also in zh_TC).
//
// Orders that the evidence leaves open (chartInfo among the first block,
// joblog_pageList before or after joblog_logDetailCat, the three :35
// scenarios) cannot change any recorded value.
var planEnZhCN = []Step{
	{Scenario: "login_failures"},
	{Scenario: "login_success"},
	{Scenario: "logout"},
	{Scenario: "not_logged_in"},
	{Scenario: "pages_admin"},
	{Scenario: "pages_errors"},
	{Scenario: "chartInfo"},
	{Scenario: "jobgroup_pageList"},
	{Scenario: "jobgroup_save"},
	{Scenario: "jobgroup_save_validation"},
	{Scenario: "jobgroup_loadById"},
	{Before: []Hook{group4Touched}},
	{Scenario: "jobgroup_remove", Before: []Hook{emptyGroup50}},
	{Scenario: "jobinfo_pageList"},
	{Scenario: "jobinfo_add"},
	{Scenario: "jobinfo_add_validation"},
	{Before: []Hook{job7HandlerCleared}},
	{Scenario: "jobinfo_start_stop"},
	{Scenario: "jobinfo_trigger"},
	{Scenario: "jobinfo_nextTriggerTime"},
	{Scenario: "jobinfo_remove"},
	{Scenario: "joblog_getJobsByGroup"},
	{Scenario: "joblog_pageList"},
	{Scenario: "joblog_logDetailCat", BeforeExchange: map[int][]Hook{6: {log20WithoutAddress}}},
	{Scenario: "jobcode_save"},
	{Scenario: "joblog_clearLog", BeforeExchange: map[int][]Hook{0: {group4OldLogs}, 8: {group4FreshLogs}}},
	{Scenario: "user_pageList"},
	{Scenario: "user_add"},
	{Scenario: "user_update"},
	{Scenario: "user_remove", Before: []Hook{user60}},
	{Before: []Hook{user61}},
	{Scenario: "perm_normal_user_admin_only"},
	{Before: []Hook{normalUserJob(15)}},
	{Scenario: "http_methods_and_binding"},
	{Scenario: "perm_permission_whitespace", Before: []Hook{user62}},
	{Scenario: "pages_user_without_groups", Before: []Hook{user63}},
}

// planZhTC is the zh_TC run: only the validation and permission scenarios
// were recorded (README), plus the held-back ones. Ids therefore differ from
// en/zh_CN: no jobinfo_add ran, so job 8 still exists and normal1's job is
// 9 (pages_user_without_groups[4] lists jobs 9, 8, 7, 4, 2); no
// jobgroup_save ran (jobgroup_remove[1]'s db_after has groups 1–4). Its
// Date headers give the same blocks as en: :46 login/pages/jobgroup, :47
// jobinfo/jobcode/clearLog/user, :47–48 perm_normal_user_admin_only, :48
// pages_user_without_groups, and job 9 (addTime :48) was added after
// perm_normal_user_admin_only (all :47).
var planZhTC = []Step{
	{Scenario: "login_failures"},
	{Scenario: "login_success"},
	{Scenario: "pages_errors"},
	{Scenario: "jobgroup_save_validation"},
	{Before: []Hook{group4Touched}},
	{Scenario: "jobgroup_remove", Before: []Hook{emptyGroup50}},
	{Scenario: "jobinfo_add_validation"},
	{Before: []Hook{job7HandlerCleared}},
	{Scenario: "jobinfo_start_stop"},
	{Scenario: "jobinfo_nextTriggerTime"},
	{Scenario: "jobcode_save"},
	{Scenario: "joblog_clearLog", BeforeExchange: map[int][]Hook{0: {group4OldLogs}, 8: {group4FreshLogs}}},
	{Scenario: "user_add"},
	{Scenario: "user_update"},
	{Scenario: "user_remove", Before: []Hook{user60}},
	{Before: []Hook{user61}},
	{Scenario: "perm_normal_user_admin_only"},
	{Before: []Hook{normalUserJob(9)}},
	{Scenario: "pages_user_without_groups", Before: []Hook{user63}},
}

// Plans returns the plan of every recorded language.
func Plans() []Plan {
	return []Plan{
		{Lang: "en", FixtureAt: recordedAt("2026-11-23T07:02:22+08:00"), Steps: planEnZhCN},
		{Lang: "zh_CN", FixtureAt: recordedAt("2026-11-23T07:02:06+08:00"), Steps: planEnZhCN},
		{Lang: "zh_TC", FixtureAt: recordedAt("2026-11-23T07:02:38+08:00"), Steps: planZhTC},
	}
}

// PlanFor returns the plan of one language.
func PlanFor(lang string) (Plan, error) {
	for _, p := range Plans() {
		if p.Lang == lang {
			return p, nil
		}
	}
	return Plan{}, fmt.Errorf("no replay plan for language %q", lang)
}

func recordedAt(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err) // constant input
	}
	return t
}
