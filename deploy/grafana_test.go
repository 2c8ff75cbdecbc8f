package deploy

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/prometheus/prometheus/model/labels"
)

// dsRef is the data source every panel and target names: the import input
// and template variable DS_PROMETHEUS.
const dsRef = "${DS_PROMETHEUS}"

// TestDashboardSchema decodes the dashboard with Grafana's own schema
// (grafana-foundation-sdk, generated from Grafana's dashboard and panel
// kinds), strictly: unknown fields, wrong types and missing required
// fields fail, and so do its validation constraints. The export-only
// __inputs and __requires are checked here, as Grafana's import reads them.
func TestDashboardSchema(t *testing.T) {
	plugins.RegisterDefaultPlugins()
	raw := readFile(t, dashboardFile)
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", dashboardFile, err)
	}

	var inputs []struct {
		Name, Type, PluginID string
	}
	if err := json.Unmarshal(doc["__inputs"], &inputs); err != nil {
		t.Fatalf("__inputs: %v", err)
	}
	if len(inputs) != 1 || inputs[0].Name != "DS_PROMETHEUS" || inputs[0].Type != "datasource" || inputs[0].PluginID != "prometheus" {
		t.Errorf("__inputs = %+v, want the one Prometheus data source DS_PROMETHEUS", inputs)
	}
	var requires []struct{ Type, ID string }
	if err := json.Unmarshal(doc["__requires"], &requires); err != nil {
		t.Fatalf("__requires: %v", err)
	}
	delete(doc, "__inputs")
	delete(doc, "__requires")
	model, _ := json.Marshal(doc)

	// The classic dashboard model (schemaVersion), which every Grafana
	// imports; the SDK marks it deprecated in favour of Grafana 12's v2.
	//lint:ignore SA1019 the file is a classic-model dashboard on purpose
	var d dashboard.Dashboard
	if err := strictErr(d.UnmarshalJSONStrict(model)); err != nil {
		t.Fatalf("%s against Grafana's dashboard schema: %v", dashboardFile, err)
	}
	if err := d.Validate(); err != nil {
		t.Errorf("%s: %v", dashboardFile, err)
	}
	if d.Uid == nil || *d.Uid == "" || d.Title == nil || d.SchemaVersion < 39 {
		t.Errorf("want a uid, a title and schemaVersion >= 39 (Grafana 10.4+), got %v %v %d", d.Uid, d.Title, d.SchemaVersion)
	}

	vars := map[string]string{}
	for _, v := range d.Templating.List {
		vars[v.Name] = string(v.Type)
	}
	for name, typ := range map[string]string{"DS_PROMETHEUS": "datasource", "job": "query", "instance": "query"} {
		if vars[name] != typ {
			t.Errorf("variable %s is %q, want a %s variable", name, vars[name], typ)
		}
	}

	// Dashboard.UnmarshalJSONStrict reports the errors of every panel but
	// keeps none of them (each panel's success is a typed nil error, which
	// PanelOrRowPanel takes for a failure): decode them one by one.
	var rawPanels []json.RawMessage
	if err := json.Unmarshal(doc["panels"], &rawPanels); err != nil || len(rawPanels) == 0 {
		t.Fatalf("panels: %v", err)
	}
	ids := map[uint32]bool{}
	types := map[string]bool{}
	for i, raw := range rawPanels {
		var pr dashboard.PanelOrRowPanel
		if err := json.Unmarshal(raw, &pr); err != nil {
			t.Fatalf("panels[%d]: %v", i, err)
		}
		if pr.RowPanel != nil {
			var row dashboard.RowPanel
			if err := strictErr(row.UnmarshalJSONStrict(raw)); err != nil {
				t.Errorf("panels[%d]: %v", i, err)
			}
			if ids[row.Id] {
				t.Errorf("row %d: repeated id", row.Id)
			}
			ids[row.Id] = true
			if len(row.Panels) > 0 {
				t.Errorf("row %d: keep rows expanded (panels at the top level)", row.Id)
			}
			continue
		}
		var p dashboard.Panel
		if err := strictErr(p.UnmarshalJSONStrict(raw)); err != nil {
			t.Errorf("panels[%d]: %v", i, err)
			continue
		}
		if err := p.Validate(); err != nil {
			t.Errorf("panels[%d]: %v", i, err)
		}
		if p.Id == nil || p.Title == nil || ids[*p.Id] {
			t.Errorf("panels[%d]: missing or repeated id, or no title", i)
			continue
		}
		ids[*p.Id] = true
		types[p.Type] = true
		if p.GridPos == nil || p.GridPos.X+p.GridPos.W > 24 {
			t.Errorf("panel %d: gridPos %+v past the 24 columns", *p.Id, p.GridPos)
		}
		if p.Datasource == nil || p.Datasource.Uid == nil || *p.Datasource.Uid != dsRef || p.Datasource.Type == nil || *p.Datasource.Type != "prometheus" {
			t.Errorf("panel %d: datasource %+v, want prometheus %s", *p.Id, p.Datasource, dsRef)
		}
		// The same typed nil loses each target: decode them here too.
		var targets struct {
			Targets []json.RawMessage `json:"targets"`
		}
		if err := json.Unmarshal(raw, &targets); err != nil || len(targets.Targets) == 0 {
			t.Errorf("panel %d %q has no query (%v)", *p.Id, *p.Title, err)
		}
		for j, raw := range targets.Targets {
			var q prometheus.Dataquery
			if err := strictErr(q.UnmarshalJSONStrict(raw)); err != nil {
				t.Errorf("panel %d target %d: %v", *p.Id, j, err)
				continue
			}
			if q.Datasource == nil || q.Datasource.Uid == nil || *q.Datasource.Uid != dsRef || q.Expr == "" {
				t.Errorf("panel %d target %d: datasource %+v, expr %q, want %s and a query", *p.Id, j, q.Datasource, q.Expr, dsRef)
			}
		}
	}
	for typ := range types {
		if !slices.ContainsFunc(requires, func(r struct{ Type, ID string }) bool { return r.Type == "panel" && r.ID == typ }) {
			t.Errorf("__requires lacks panel %s", typ)
		}
	}
}

// strictErr is err, or nil for the empty error list UnmarshalJSONStrict
// returns on success (a typed nil: cog.BuildErrors(nil)).
func strictErr(err error) error {
	var list cog.BuildErrors
	if errors.As(err, &list) && len(list) == 0 {
		return nil
	}
	return err
}

// rangeSelector finds the range of each range selector in a query.
var rangeSelector = regexp.MustCompile(`\[([^\]]*)\]`)

// TestDashboardQueries: each panel query follows the dashboard's variables,
// as a Grafana dashboard linter demands: every selector is filtered by
// job=~"$job" and instance=~"$instance", and every range is
// $__rate_interval (at least four scrapes whatever the zoom).
func TestDashboardQueries(t *testing.T) {
	for _, q := range dashboardQueries(t) {
		if q.vars {
			continue // $instance's own query filters by $job only
		}
		u, err := parse(q)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, s := range u.selectors {
			for name, want := range map[string]string{"job": "$job", "instance": "$instance"} {
				if !slices.ContainsFunc(s.matchers, func(m *labels.Matcher) bool {
					return m.Name == name && m.Type == labels.MatchRegexp && m.Value == want
				}) {
					t.Errorf("%s: %s lacks %s=~%q", q.where, s.name, name, want)
				}
			}
		}
		for _, m := range rangeSelector.FindAllStringSubmatch(q.expr, -1) {
			if m[1] != "$__rate_interval" {
				t.Errorf("%s: range [%s], want [$__rate_interval]", q.where, m[1])
			}
		}
	}
}
