package deploy

import (
	"os/exec"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestRulesPromtool runs Prometheus's own checker on the rules and the
// example configuration, and the rules' unit tests (each alert fires on a
// misbehaving admin, after its `for`, and stays quiet on a healthy one).
func TestRulesPromtool(t *testing.T) {
	bin, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("[suite-off] promtool not found: install Debian's prometheus package (.ci/packages.d/prometheus)")
	}
	for _, args := range [][]string{
		{"check", "rules", "xxl-job-admin.rules.yml"},
		{"check", "config", "prometheus.yml"},
		{"test", "rules", "tests/xxl-job-admin.test.yml"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = "prometheus"
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("promtool %v: %v\n%s", args, err, out)
		}
	}
}

// TestEveryAlertTested: the unit tests make each alert fire at some time
// and hold it quiet at another, so none is left untested.
func TestEveryAlertTested(t *testing.T) {
	var f struct {
		Tests []struct {
			AlertRuleTest []struct {
				Alertname string `yaml:"alertname"`
				ExpAlerts []any  `yaml:"exp_alerts"`
			} `yaml:"alert_rule_test"`
		} `yaml:"tests"`
	}
	if err := yaml.Unmarshal(readFile(t, ruleTestsFile), &f); err != nil {
		t.Fatal(err)
	}
	fires, quiet := map[string]bool{}, map[string]bool{}
	for _, tc := range f.Tests {
		for _, a := range tc.AlertRuleTest {
			if len(a.ExpAlerts) > 0 {
				fires[a.Alertname] = true
			} else {
				quiet[a.Alertname] = true
			}
		}
	}
	var rf ruleFile
	if err := yaml.Unmarshal(readFile(t, rulesFile), &rf); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range rf.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				names = append(names, r.Alert)
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s has no alerts", rulesFile)
	}
	for _, name := range names {
		if !fires[name] || !quiet[name] {
			t.Errorf("%s: firing tested %v, quiet tested %v (want both)", name, fires[name], quiet[name])
		}
	}
	for name := range fires {
		if !slices.Contains(names, name) {
			t.Errorf("%s tests alert %s, which %s does not define", ruleTestsFile, name, rulesFile)
		}
	}
}
