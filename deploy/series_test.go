package deploy

import (
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
)

// TestSeriesExported: every metric name, label and label value the
// dashboard, the alert rules and the rules' unit tests use is exported by
// /actuator/prometheus of a running admin that has done some work; and
// every xxl_job_ family it exports has a panel.
func TestSeriesExported(t *testing.T) {
	dash := dashboardQueries(t)
	queries := slices.Concat(dash, ruleQueries(t), ruleTestSeries(t))
	c := checker{exp: newExposition(busyAdmin(t)), jobs: scrapeJobs(t)}
	for _, q := range queries {
		for _, err := range c.check(q) {
			t.Error(err)
		}
	}
	t.Logf("%d expressions and series checked against %d exported families", len(queries), len(c.exp))

	shown := map[string]bool{}
	for _, q := range dash {
		u, err := parse(q)
		if err != nil {
			continue // reported above
		}
		for _, s := range u.selectors {
			shown[strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s.name, "_bucket"), "_count"), "_sum")] = true
		}
	}
	for name := range c.exp {
		if strings.HasPrefix(name, "xxl_job_") && !shown[name] {
			t.Errorf("%s is exported but on no panel of %s", name, dashboardFile)
		}
	}
}

// TestChecker: the checker rejects each kind of mistake it is there for.
func TestChecker(t *testing.T) {
	c := checker{jobs: []string{"xxl-job-admin"}, exp: exposition{
		"xxl_job_triggers_total": {typ: dto.MetricType_COUNTER, labels: map[string][]string{
			"result": {"success"}, "trigger_type": {"CRON"}}},
		"xxl_job_trigger_lateness_seconds": {typ: dto.MetricType_HISTOGRAM, labels: map[string][]string{
			"le": {"0.1", "2", "+Inf"}}},
		"xxl_job_trigger_pool_queued": {typ: dto.MetricType_GAUGE, labels: map[string][]string{"pool": {"fast", "slow"}}},
	}}
	for _, tc := range []struct {
		q     query
		wrong string // "" when the query is right
	}{
		{query{expr: `sum by (result) (rate(xxl_job_triggers_total{job=~"$job",instance=~"$instance"}[$__rate_interval]))`, output: []string{"result"}}, ""},
		{query{expr: `xxl_job_triggers_total{result=~"rejected|misfired",trigger_type="MISFIRE"}`}, ""},
		{query{expr: `histogram_quantile(0.99, sum by (le) (rate(xxl_job_trigger_lateness_seconds_bucket{le="2"}[5m])))`}, ""},
		{query{expr: `up{job="xxl-job-admin"} == 0`, output: []string{"instance"}}, ""},
		{query{expr: `xxl_job_trigger_pool_queued{job="xxl-job-admin",instance="a:8080",pool="slow"}`, input: true}, ""},
		{query{expr: `rate(xxl_job_trigger_total[5m])`}, "not exported"},
		{query{expr: `xxl_job_trigger_lateness_seconds`}, "read its _bucket"},
		{query{expr: `xxl_job_trigger_lateness_seconds_count{le="2"}`}, `label "le" is not exported`},
		{query{expr: `xxl_job_trigger_lateness_seconds_bucket{le="3"}`}, `value "3" is never written`},
		{query{expr: `xxl_job_triggers_total{result="failed"}`}, `value "failed" is never written`},
		{query{expr: `xxl_job_triggers_total{result!~"fail.*"}`}, "literal values"},
		{query{expr: `xxl_job_triggers_total{reason="x"}`}, `label "reason" is not exported`},
		{query{expr: `sum by (pool) (xxl_job_triggers_total)`}, `label "pool" is on none`},
		{query{expr: `sum(xxl_job_triggers_total)`, output: []string{"appname"}}, `label "appname" is on none`},
		{query{expr: `xxl_job_trigger_pool_queued{pool=~"$pool"}`}, "not a target label"},
		{query{expr: `up{job="xxl-job"}`}, `value "xxl-job" is never written`},
		{query{expr: `up{instance="a:8080"}`}, "literal instance"},
		{query{expr: `{__name__=~"xxl_job_.+"}`}, "name it"},
		{query{expr: `rate(xxl_job_triggers_total[5m]`}, "unclosed"},
	} {
		errs := c.check(tc.q)
		switch {
		case tc.wrong == "" && len(errs) > 0:
			t.Errorf("%s: unexpected %v", tc.q.expr, errs)
		case tc.wrong != "" && len(errs) == 0:
			t.Errorf("%s: accepted, want an error with %q", tc.q.expr, tc.wrong)
		case tc.wrong != "" && !strings.Contains(errs[0].Error(), tc.wrong):
			t.Errorf("%s: %v, want an error with %q", tc.q.expr, errs, tc.wrong)
		}
	}
}
