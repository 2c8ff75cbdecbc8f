package deploy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// targetLabels are the labels Prometheus adds to every scraped series.
var targetLabels = []string{"job", "instance"}

// synthetic are the series Prometheus itself writes for each target.
var synthetic = map[string]bool{"up": true}

// fixedValues are the label values the code can write and a short run may
// not: a matcher may use these as well as the values seen in the scrape.
var fixedValues = map[string]map[string][]string{
	"xxl_job_triggers_total": {
		"result": {trigger.ResultSuccess, trigger.ResultFail, trigger.ResultRejected, trigger.ResultMisfired},
		"trigger_type": {string(trigger.TypeCron), string(trigger.TypeManual), string(trigger.TypeParent),
			string(trigger.TypeAPI), string(trigger.TypeRetry), string(trigger.TypeMisfire)},
	},
	"xxl_job_callback_items_total": {
		"result": {thread.CallbackFinished, thread.CallbackRepeated, thread.CallbackUnknown, thread.CallbackFailed},
	},
	"xxl_job_alarms_total": {
		"channel": {alarm.EmailChannel, alarm.WebhookChannel},
		"result":  {"success", "failure"}, // metrics.Alarm
	},
}

// family is one metric family of the exposition: its type and the values
// seen of each label.
type family struct {
	typ    dto.MetricType
	labels map[string][]string
}

// exposition is a scrape of /actuator/prometheus by family name.
type exposition map[string]family

// newExposition indexes a scrape's families by name.
func newExposition(mfs map[string]*dto.MetricFamily) exposition {
	out := exposition{}
	for name, mf := range mfs {
		f := family{typ: mf.GetType(), labels: map[string][]string{}}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if !slices.Contains(f.labels[lp.GetName()], lp.GetValue()) {
					f.labels[lp.GetName()] = append(f.labels[lp.GetName()], lp.GetValue())
				}
			}
		}
		if mf.GetType() == dto.MetricType_HISTOGRAM {
			for _, m := range mf.GetMetric() {
				for _, b := range m.GetHistogram().GetBucket() {
					le := model.FloatString(b.GetUpperBound()).String()
					if !slices.Contains(f.labels["le"], le) {
						f.labels["le"] = append(f.labels["le"], le)
					}
				}
			}
			if !slices.Contains(f.labels["le"], "+Inf") {
				f.labels["le"] = append(f.labels["le"], "+Inf") // implied by _count
			}
		}
		out[name] = f
	}
	return out
}

// series is what a selector's metric name denotes in the exposition: the
// family, and its labels as the selector sees them (a histogram's _bucket
// series carry le, its _sum and _count do not).
func (e exposition) series(name string) (labelValues map[string][]string, err error) {
	if synthetic[name] {
		return map[string][]string{}, nil
	}
	if f, ok := e[name]; ok {
		if f.typ == dto.MetricType_HISTOGRAM || f.typ == dto.MetricType_SUMMARY {
			return nil, fmt.Errorf("%s is a %s: read its _bucket, _sum or _count series", name, f.typ)
		}
		return f.labels, nil
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		base, ok := strings.CutSuffix(name, suffix)
		if f, found := e[base]; ok && found && f.typ == dto.MetricType_HISTOGRAM {
			out := map[string][]string{}
			for k, v := range f.labels {
				if k != "le" || suffix == "_bucket" {
					out[k] = v
				}
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%s is not exported by /actuator/prometheus", name)
}

// checker matches what expressions read against one exposition; jobs are
// the scrape job names of deploy/prometheus/prometheus.yml.
type checker struct {
	exp  exposition
	jobs []string
}

// check returns every problem of one expression: unknown metric names,
// labels no read series has, label values the admin never writes, and
// output placeholders naming labels the result cannot have.
func (c checker) check(q query) []error {
	u, err := parse(q)
	if err != nil {
		return []error{err}
	}
	var errs []error
	have := slices.Clone(targetLabels)
	for _, s := range u.selectors {
		lv, err := c.exp.series(s.name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", q.where, err))
			continue
		}
		for name := range lv {
			have = append(have, name)
		}
		for _, m := range s.matchers {
			if err := c.matcher(q, s.name, lv, m); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s{%s}: %w", q.where, s.name, m, err))
			}
		}
	}
	for _, l := range slices.Concat(u.grouping, q.output) {
		if !slices.Contains(have, l) {
			errs = append(errs, fmt.Errorf("%s: label %q is on none of the series read (%s)", q.where, l, q.expr))
		}
	}
	return errs
}

// matcher checks one label matcher of a selector of name.
func (c checker) matcher(q query, name string, lv map[string][]string, m *labels.Matcher) error {
	if templateVar.MatchString(m.Value) {
		if !slices.Contains(targetLabels, m.Name) {
			return fmt.Errorf("dashboard variable on %q, which is not a target label", m.Name)
		}
		return nil
	}
	var allowed []string
	switch {
	case m.Name == "job":
		allowed = c.jobs
	case m.Name == "instance" && q.input:
		return nil // a rule test's made-up admin
	case m.Name == "instance":
		return fmt.Errorf("a literal instance; use $instance")
	default:
		seen, ok := lv[m.Name]
		if !ok {
			return fmt.Errorf("label %q is not exported on %s", m.Name, name)
		}
		allowed = slices.Concat(seen, fixedValues[name][m.Name])
		slices.Sort(allowed)
		allowed = slices.Compact(allowed)
	}
	values := []string{m.Value}
	if m.Type == labels.MatchRegexp || m.Type == labels.MatchNotRegexp {
		values = strings.Split(m.Value, "|")
		for _, v := range values {
			if regexp.QuoteMeta(v) != v {
				return fmt.Errorf("regexp %q: use an alternation of literal values, so each can be checked", m.Value)
			}
		}
	}
	for _, v := range values {
		if !slices.Contains(allowed, v) {
			return fmt.Errorf("value %q is never written (known: %s)", v, strings.Join(allowed, ", "))
		}
	}
	return nil
}
