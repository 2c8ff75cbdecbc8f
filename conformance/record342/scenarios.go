package main

import (
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
)

// scenarioList is every scenario; dates in requests (the dashboard's and
// the log page's ranges) are computed from now, in the admin's zone, as
// the page scripts compute them from the browser's clock.
func scenarioList(now time.Time) []scenario {
	var all []scenario
	all = append(all, authScenarios()...)
	all = append(all, pageScenarios(now)...)
	all = append(all, jobgroupScenarios()...)
	all = append(all, jobinfoScenarios()...)
	all = append(all, joblogScenarios(now)...)
	all = append(all, userScenarios()...)
	all = append(all, permScenarios(now)...)
	return all
}

// scenarioMap is scenarioList by name.
func scenarioMap(now time.Time) (map[string]scenario, error) {
	loc, err := time.LoadLocation(consolereplay.Zone)
	if err != nil {
		return nil, err
	}
	out := map[string]scenario{}
	for _, s := range scenarioList(now.In(loc)) {
		out[s.name] = s
	}
	return out, nil
}
