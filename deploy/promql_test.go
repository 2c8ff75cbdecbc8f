// Package deploy holds no code: its tests check the files under deploy/
// with their ecosystems' own tools. The Grafana dashboard is decoded by
// Grafana's schema (grafana-foundation-sdk, strict), the alert rules by
// promtool, every PromQL expression of both by Prometheus's PromQL parser,
// and every series they read is matched against the exposition of a
// running admin.
package deploy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// query is one PromQL expression of the dashboard or the rules, with where
// it came from and the label names its text output refers to (legend
// {{label}}, alert annotations {{ $labels.label }}).
type query struct {
	where  string
	expr   string
	output []string
	input  bool // a rule test's input series, not a query
	vars   bool // a dashboard variable's query
}

// use is what one expression reads: its vector selectors and the label
// names it groups or matches on.
type use struct {
	selectors []selector
	grouping  []string
}

// selector is one vector selector: the metric name and its other matchers.
type selector struct {
	name     string
	matchers []*labels.Matcher
}

// grafanaVars are Grafana's built-in interval variables, replaced by a
// duration before parsing, as Grafana does before sending a query.
var grafanaVars = strings.NewReplacer(
	"$__rate_interval", "1m", "${__rate_interval}", "1m",
	"$__interval", "1m", "${__interval}", "1m",
	"$__range", "1h", "${__range}", "1h",
)

// templateVar matches a dashboard variable ($job, ${instance}) left in a
// label value; such a matcher is checked by name only.
var templateVar = regexp.MustCompile(`\$\{?\w+\}?`)

// parse runs the PromQL parser on q and collects what the expression reads.
func parse(q query) (use, error) {
	expr, err := parser.NewParser(parser.Options{}).ParseExpr(grafanaVars.Replace(q.expr))
	if err != nil {
		return use{}, fmt.Errorf("%s: %w", q.where, err)
	}
	var u use
	parser.Inspect(expr, func(n parser.Node, _ []parser.Node) error {
		switch n := n.(type) {
		case *parser.VectorSelector:
			s := selector{name: n.Name}
			for _, m := range n.LabelMatchers {
				if m.Name == model.MetricNameLabel {
					if m.Type != labels.MatchEqual {
						err = fmt.Errorf("%s: a metric name matched by %s %q; name it", q.where, m.Type, m.Value)
					}
					s.name = m.Value
					continue
				}
				s.matchers = append(s.matchers, m)
			}
			u.selectors = append(u.selectors, s)
		case *parser.AggregateExpr:
			u.grouping = append(u.grouping, n.Grouping...)
		case *parser.BinaryExpr:
			if n.VectorMatching != nil {
				u.grouping = append(u.grouping, n.VectorMatching.MatchingLabels...)
				u.grouping = append(u.grouping, n.VectorMatching.Include...)
			}
		}
		return nil
	})
	if err != nil {
		return use{}, err
	}
	if len(u.selectors) == 0 {
		return use{}, fmt.Errorf("%s: %q reads no series", q.where, q.expr)
	}
	slices.Sort(u.grouping)
	u.grouping = slices.Compact(u.grouping)
	return u, nil
}

// placeholders returns the label names of {{label}} (legends) or
// {{ $labels.label }} (alert templates) in text.
func placeholders(text string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

var placeholder = regexp.MustCompile(`\{\{\s*(?:\$labels\.(\w+)|(\w+))\s*\}\}`)
