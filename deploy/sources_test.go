package deploy

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"
)

// The files under test, relative to this package.
const (
	dashboardFile  = "grafana/xxl-job-admin.json"
	rulesFile      = "prometheus/xxl-job-admin.rules.yml"
	ruleTestsFile  = "prometheus/tests/xxl-job-admin.test.yml"
	prometheusFile = "prometheus/prometheus.yml"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dashboardPanel is the part of a Grafana panel that holds queries; rows
// hold panels when collapsed.
type dashboardPanel struct {
	ID      int              `json:"id"`
	Type    string           `json:"type"`
	Title   string           `json:"title"`
	Panels  []dashboardPanel `json:"panels"`
	Targets []struct {
		RefID        string `json:"refId"`
		Expr         string `json:"expr"`
		LegendFormat string `json:"legendFormat"`
	} `json:"targets"`
}

// dashboardVariable is a templating variable.
type dashboardVariable struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Query any    `json:"query"`
}

// labelValues is Grafana's variable query label_values(selector, label).
var labelValues = regexp.MustCompile(`^\s*label_values\((.+),\s*(\w+)\s*\)\s*$`)

// dashboardQueries returns every PromQL expression of the dashboard: each
// panel target (with its legend's labels) and each query variable.
func dashboardQueries(t *testing.T) []query {
	var d struct {
		Panels     []dashboardPanel `json:"panels"`
		Templating struct {
			List []dashboardVariable `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(readFile(t, dashboardFile), &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	var out []query
	var walk func(ps []dashboardPanel)
	walk = func(ps []dashboardPanel) {
		for _, p := range ps {
			walk(p.Panels)
			for _, tg := range p.Targets {
				out = append(out, query{where: fmt.Sprintf("%s panel %d %q target %s", dashboardFile, p.ID, p.Title, tg.RefID),
					expr: tg.Expr, output: placeholders(tg.LegendFormat)})
			}
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		text, _ := v.Query.(string)
		if m, ok := v.Query.(map[string]any); ok {
			text, _ = m["query"].(string)
		}
		where := fmt.Sprintf("%s variable %s", dashboardFile, v.Name)
		m := labelValues.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s: %q is not label_values(selector, label)", where, text)
			continue
		}
		out = append(out, query{where: where, expr: m[1], output: []string{m[2]}, vars: true})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no queries", dashboardFile)
	}
	return out
}

// ruleFile is the rule file format (the subset with expressions).
type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Record      string            `yaml:"record"`
			Expr        string            `yaml:"expr"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// ruleQueries returns every rule's expression, with the labels its
// annotations and labels print.
func ruleQueries(t *testing.T) []query {
	var f ruleFile
	if err := yaml.Unmarshal(readFile(t, rulesFile), &f); err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	var out []query
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			var output []string
			for _, text := range r.Annotations {
				output = append(output, placeholders(text)...)
			}
			for _, text := range r.Labels {
				output = append(output, placeholders(text)...)
			}
			out = append(out, query{where: fmt.Sprintf("%s %s%s", rulesFile, r.Alert, r.Record), expr: r.Expr, output: output})
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no rules", rulesFile)
	}
	return out
}

// ruleTestSeries returns the input series of the rule unit tests, as
// selectors: made-up values, but real names and labels.
func ruleTestSeries(t *testing.T) []query {
	var f struct {
		Tests []struct {
			Name        string `yaml:"name"`
			InputSeries []struct {
				Series string `yaml:"series"`
			} `yaml:"input_series"`
		} `yaml:"tests"`
	}
	if err := yaml.Unmarshal(readFile(t, ruleTestsFile), &f); err != nil {
		t.Fatalf("%s: %v", ruleTestsFile, err)
	}
	var out []query
	for _, tc := range f.Tests {
		for _, s := range tc.InputSeries {
			out = append(out, query{where: fmt.Sprintf("%s test %q", ruleTestsFile, tc.Name), expr: s.Series, input: true})
		}
	}
	return out
}

// scrapeJobs returns the job names of the example Prometheus configuration.
func scrapeJobs(t *testing.T) []string {
	var f struct {
		ScrapeConfigs []struct {
			JobName string `yaml:"job_name"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(readFile(t, prometheusFile), &f); err != nil {
		t.Fatalf("%s: %v", prometheusFile, err)
	}
	var out []string
	for _, s := range f.ScrapeConfigs {
		out = append(out, s.JobName)
	}
	return out
}
