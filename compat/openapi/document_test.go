package openapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

var update = flag.Bool("update", false, "rewrite openapi.yaml's response examples from the answers (review the diff)")

// servedContract loads the document as the API serves it.
func servedContract(t *testing.T) *contract {
	t.Helper()
	raw, err := document(ctxPath)
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadContract(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// operation is one operation of the document.
type operation struct {
	method, path string
	item         *openapi3.PathItem
	op           *openapi3.Operation
}

// operations are the document's operations by operationId.
func operations(t *testing.T, doc *openapi3.T) map[string]operation {
	t.Helper()
	out := map[string]operation{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if _, dup := out[op.OperationID]; dup || op.OperationID == "" {
				t.Fatalf("%s %s: operationId %q is empty or not unique", method, path, op.OperationID)
			}
			out[op.OperationID] = operation{method: method, path: path, item: item, op: op}
		}
	}
	return out
}

// TestDocumentMatchesRoutes: every route has its document entry with the
// same operationId, and every entry a route.
func TestDocumentMatchesRoutes(t *testing.T) {
	c := servedContract(t)
	if c.doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi version %q", c.doc.OpenAPI)
	}
	documented := map[string]string{}
	for id, o := range operations(t, c.doc) {
		documented[o.method+" "+o.path] = id
	}
	routed := map[string]bool{}
	for _, rt := range routeTable() {
		key := rt.method + " " + rt.path
		routed[key] = true
		if id, ok := documented[key]; !ok {
			t.Errorf("route %s has no document entry", key)
		} else if id != rt.op {
			t.Errorf("route %s: operationId %q in the document, %q in the table", key, id, rt.op)
		}
		if op := c.doc.Paths.Value(rt.path).GetOperation(rt.method); op != nil && rt.public != (op.Security != nil && len(*op.Security) == 0) {
			t.Errorf("route %s: public %v in the table, security %v in the document", key, rt.public, op.Security)
		}
	}
	for key := range documented {
		if !routed[key] {
			t.Errorf("document entry %s has no route", key)
		}
	}
}

// scenario is a user's first session on a fresh install: the document's
// request examples ("operationId/example") in the order a user would send
// them — the group before the jobs that name its app, a job before its
// run, a run before its log. Each is accepted with the documented success
// status and answered with the documented example, so a user who copies
// them gets what the document shows. The refusals in between produce the
// document's failure examples. "+5s" lets the clock move on (the logs
// list newest trigger first). Ids and times in the examples are the ones
// this order produces.
var scenario = []string{
	"getDocument",
	"listGroups/ok",
	"createGroup/ok", "createGroup/replay", "createGroup/invalid", "createGroup/conflict",
	"getGroup/ok", "updateGroup/ok",
	"createJob/ok", "createJob/replay", "createJob/invalid", "createJob/conflict",
	"applyJob/created", "applyJob/updated",
	"listJobs/ok", "listJobs/unauthorized",
	"getJob/ok", "getJob/notFound",
	"updateJob/ok", "startJob/ok", "stopJob/ok", "triggerJob/ok", "+5s", "triggerJob/own",
	"listLogs/ok", "getLog/ok", "getLogText/ok", "killLog/ok", "killLog/conflict",
	"listRegistry/ok",
	"exportJobs/ok", "importJobs/ok", "importJobs/dryRun",
	"deleteJob/removable", "deleteGroup/conflict", "deleteGroup/removable",
}

// refusal is the request behind one of the document's failure examples.
// The document gives those as answers only (with a summary of the
// request): its request examples are the ones the API accepts.
type refusal struct {
	id    string // the {id} path parameter
	body  string
	token string // "" for the test token
}

var refusals = map[string]refusal{
	"createGroup/invalid":  {body: `{"appname":"ab","title":"Orders"}`},
	"createGroup/conflict": {body: `{"appname":"app-orders","title":"Other","addressType":1,"addressList":["http://127.0.0.1:9999/"]}`},
	"createJob/invalid": {body: `{"appname":"app-orders","jobDesc":"Broken","author":"ci","scheduleType":"CRON",
		"scheduleConf":"every day","executorHandler":"orderSync"}`},
	"createJob/conflict": {body: `{"key":"orders/sync","appname":"app-orders","jobDesc":"Sync orders","author":"someone else",
		"scheduleType":"CRON","scheduleConf":"0 0/5 * * * ?","executorHandler":"orderSync","executorFailRetryCount":2}`},
	"listJobs/unauthorized": {token: "wrong-token-0123456789"},
	"getJob/notFound":       {id: "99"},
	"killLog/conflict":      {id: "2"}, // triggerJob/own's log: no executor of the sample app is registered
	"deleteGroup/conflict":  {id: "2"},
}

// TestDocumentExamples runs the scenario on a fresh database of each
// backend and checks each answer's status and that it is the documented
// example (the traffic check of env holds every exchange to the schemas).
// With -update the answers (from SQLite) are written into openapi.yaml as
// the examples.
func TestDocumentExamples(t *testing.T) {
	c := servedContract(t)
	ops := operations(t, c.doc)
	checkCoverage(t, ops)
	var root yaml.Node
	if *update {
		raw, _ := os.ReadFile("openapi.yaml")
		if err := yaml.Unmarshal(raw, &root); err != nil {
			t.Fatal(err)
		}
	}
	forEachShanghai(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "")
		// The one thing not done through the API: the executor of
		// app-orders runs at http://127.0.0.1:9999/ (the env's fake
		// executor answers every address) and registered 10 s ago.
		testfactory.Registry(t, s, testfactory.RegistryOpts{App: "app-orders", Addr: "http://127.0.0.1:9999/", At: e.now.Add(-10 * time.Second)})
		for _, step := range scenario {
			if d, err := time.ParseDuration(step); err == nil {
				e.clock.advance(d)
				continue
			}
			id, name, _ := strings.Cut(step, "/")
			o := ops[id]
			if name == "" { // the document itself
				a := e.callToken(o.method, o.path, nil, "")
				if a.status != 200 || !bytes.Equal(a.body, e.api.doc) {
					t.Errorf("%s: %d", step, a.status)
				}
				continue
			}
			code, want := documentedAnswer(t, o, name)
			var r sent
			if ref, ok := refusals[step]; ok {
				r = refusalRequest(o, ref)
				if code < 400 {
					t.Fatalf("%s: a refusal answered %d in the document", step, code)
				}
			} else {
				r = exampleRequest(t, o, name)
				if code >= 300 {
					t.Fatalf("%s: the document answers its request example with %d; a request example must be one the API accepts", step, code)
				}
			}
			a := e.callToken(o.method, r.path, r.body, r.token)
			if a.status != code {
				t.Errorf("%s: %s %s answered %d, the document says %d: %s", step, o.method, r.path, a.status, code, a.body)
				continue
			}
			var got any
			if err := json.Unmarshal(a.body, &got); err != nil {
				t.Fatalf("%s: not JSON: %s", step, a.body)
			}
			if *update && s.Backend() == schema.SQLite {
				setExample(t, &root, o, strconv.Itoa(code), name, a.body)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				wantJSON, _ := json.MarshalIndent(want, "", "  ")
				t.Errorf("%s: answer differs from the document's example\n got: %s\nwant: %s", step, a.body, wantJSON)
			}
		}
		if *update && s.Backend() == schema.SQLite {
			var b bytes.Buffer
			enc := yaml.NewEncoder(&b)
			enc.SetIndent(2)
			if err := enc.Encode(&root); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("openapi.yaml", b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// sent is a scenario step's request.
type sent struct {
	path  string // with the query
	body  any    // nil for none
	token string
}

// parameters are an operation's parameters: the path item's and its own.
func (o operation) parameters() openapi3.Parameters {
	return append(append(openapi3.Parameters{}, o.item.Parameters...), o.op.Parameters...)
}

// bodyExamples are the request body's examples.
func (o operation) bodyExamples() openapi3.Examples {
	if o.op.RequestBody == nil {
		return nil
	}
	if mt := o.op.RequestBody.Value.Content.Get("application/json"); mt != nil {
		return mt.Examples
	}
	return nil
}

// exampleRequest builds a request from the parameter and body examples of
// that name.
func exampleRequest(t *testing.T, o operation, name string) sent {
	t.Helper()
	r := sent{path: o.path, token: testToken}
	query := url.Values{}
	for _, p := range o.parameters() {
		ex, ok := p.Value.Examples[name]
		if !ok {
			if p.Value.In == openapi3.ParameterInPath {
				t.Fatalf("%s/%s: path parameter %s has no example %q", o.op.OperationID, name, p.Value.Name, name)
			}
			continue
		}
		v := fmt.Sprint(ex.Value.Value)
		switch p.Value.In {
		case openapi3.ParameterInPath:
			r.path = strings.ReplaceAll(r.path, "{"+p.Value.Name+"}", url.PathEscape(v))
		case openapi3.ParameterInQuery:
			query.Set(p.Value.Name, v)
		}
	}
	if len(query) > 0 {
		r.path += "?" + query.Encode()
	}
	if ex, ok := o.bodyExamples()[name]; ok {
		r.body = ex.Value.Value
	}
	return r
}

func refusalRequest(o operation, ref refusal) sent {
	r := sent{path: strings.ReplaceAll(o.path, "{id}", ref.id), token: ref.token}
	if r.token == "" {
		r.token = testToken
	}
	if ref.body != "" {
		r.body = ref.body
	}
	return r
}

// documentedAnswer is the status and value of the one response example of
// that name.
func documentedAnswer(t *testing.T, o operation, name string) (int, any) {
	t.Helper()
	code, n := 0, 0
	var want any
	for c, resp := range o.op.Responses.Map() {
		if ex, ok := responseExamples(resp)[name]; ok {
			n++
			code, _ = strconv.Atoi(c)
			want = ex.Value.Value
		}
	}
	if n != 1 {
		t.Fatalf("%s/%s: %d responses have the example, want 1", o.op.OperationID, name, n)
	}
	return code, want
}

func responseExamples(r *openapi3.ResponseRef) openapi3.Examples {
	if mt := r.Value.Content.Get("application/json"); mt != nil {
		return mt.Examples
	}
	return nil
}

// checkCoverage: every example of the document is in the scenario, a
// refusal is never a request example, and every operation has a step.
func checkCoverage(t *testing.T, ops map[string]operation) {
	steps := map[string]bool{}
	byPath := map[string]map[string]bool{} // example names used per path
	for _, s := range scenario {
		if _, err := time.ParseDuration(s); err == nil {
			continue
		}
		steps[s] = true
		id, _, _ := strings.Cut(s, "/")
		o, ok := ops[id]
		if !ok {
			t.Errorf("scenario step %s: no such operation", s)
		}
		if byPath[o.path] == nil {
			byPath[o.path] = map[string]bool{}
		}
		byPath[o.path][strings.TrimPrefix(s[len(id):], "/")] = true
	}
	for s := range refusals {
		if !steps[s] {
			t.Errorf("refusal %s is not in the scenario", s)
		}
	}
	var ids []string
	for id := range ops {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		o := ops[id]
		named := 0
		for _, s := range scenario {
			if s == id || strings.HasPrefix(s, id+"/") {
				named++
			}
		}
		if named == 0 {
			t.Errorf("operation %s has no step in the scenario", id)
		}
		for _, resp := range o.op.Responses.Map() {
			for n := range responseExamples(resp) {
				if !steps[id+"/"+n] {
					t.Errorf("answer example %s/%s is not in the scenario", id, n)
				}
			}
		}
		for n := range o.bodyExamples() {
			if !steps[id+"/"+n] {
				t.Errorf("request example %s/%s is not in the scenario", id, n)
			}
			if _, ok := refusals[id+"/"+n]; ok {
				t.Errorf("request example %s/%s is a refusal: request examples are accepted", id, n)
			}
		}
		for _, p := range o.op.Parameters {
			for n := range p.Value.Examples {
				if !steps[id+"/"+n] {
					t.Errorf("parameter example %s/%s (%s) is not in the scenario", id, n, p.Value.Name)
				}
			}
		}
	}
	for path, item := range opsByPath(ops) {
		for _, p := range item.Parameters {
			for n := range p.Value.Examples {
				if !byPath[path][n] {
					t.Errorf("parameter example %s of %s is not in the scenario", n, path)
				}
			}
		}
	}
}

func opsByPath(ops map[string]operation) map[string]*openapi3.PathItem {
	m := map[string]*openapi3.PathItem{}
	for _, o := range ops {
		m[o.path] = o.item
	}
	return m
}

// setExample replaces a response example's value in the YAML tree.
func setExample(t *testing.T, root *yaml.Node, o operation, code, name string, answer []byte) {
	t.Helper()
	var v yaml.Node
	if err := yaml.Unmarshal(answer, &v); err != nil {
		t.Fatal(err)
	}
	val := v.Content[0]
	plain(val)
	n := child(root.Content[0], "paths", o.path, strings.ToLower(o.method), "responses", code)
	if ref := child(n, "$ref"); ref != nil {
		t.Fatalf("%s/%s: examples of shared responses (%s) cannot be updated", o.op.OperationID, name, ref.Value)
	}
	ex := child(n, "content", "application/json", "examples", name)
	if ex == nil {
		t.Fatalf("%s/%s: no example node", o.op.OperationID, name)
	}
	ex.Style = 0
	for i := 0; i+1 < len(ex.Content); i += 2 {
		if ex.Content[i].Value == "value" {
			ex.Content[i+1] = val
		}
	}
}

func child(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

// plain drops the JSON flow style, so the encoder writes block YAML.
func plain(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		plain(c)
	}
}

// forEachShanghai is storetest.ForEach with both stores in Asia/Shanghai,
// the zone of the examples' times (MariaDB's and PostgreSQL's test stores
// already are): the seed rows' wall times then read back the same on all.
func forEachShanghai(t *testing.T, fn func(t *testing.T, s *schema.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		fn(t, storetest.Open(t, storetest.SQLiteURL(t, "serverTimezone=Asia/Shanghai"), "", ""))
	})
	t.Run("mysql", func(t *testing.T) { fn(t, storetest.MySQL(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, storetest.Postgres(t)) })
}
