package openapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

var update = flag.Bool("update", false, "rewrite openapi.yaml's response examples from the answers (review the diff)")

// loadDoc reads openapi.yaml as JSON values (numbers as float64).
func loadDoc(t *testing.T) map[string]any {
	t.Helper()
	raw, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return normalize(t, jsonable(v)).(map[string]any)
}

// normalize round-trips through JSON so values compare with decoded answers.
func normalize(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// resolve follows a local $ref.
func resolve(doc map[string]any, v any) map[string]any {
	m := obj(v)
	ref, ok := m["$ref"].(string)
	if !ok {
		return m
	}
	var cur any = doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = obj(cur)[part]
	}
	return resolve(doc, cur)
}

type operation struct {
	method, path, id string
	op, item         map[string]any
}

func operations(doc map[string]any) []operation {
	var out []operation
	for path, item := range obj(doc["paths"]) {
		for _, m := range []string{"get", "post", "put", "delete", "patch"} {
			if op := obj(obj(item)[m]); op != nil {
				id, _ := op["operationId"].(string)
				out = append(out, operation{method: strings.ToUpper(m), path: path, id: id, op: op, item: obj(item)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	return out
}

// TestDocumentMatchesRoutes: every route has its document entry with the
// same operationId, every entry a route, and every $ref resolves.
func TestDocumentMatchesRoutes(t *testing.T) {
	doc := loadDoc(t)
	documented := map[string]string{}
	for _, o := range operations(doc) {
		documented[o.method+" "+o.path] = o.id
		if o.id == "" || len(obj(o.op["responses"])) == 0 {
			t.Errorf("%s %s: no operationId or no responses", o.method, o.path)
		}
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
	}
	for key := range documented {
		if !routed[key] {
			t.Errorf("document entry %s has no route", key)
		}
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok && resolve(doc, x) == nil {
				t.Errorf("%s: $ref %s does not resolve", at, ref)
			}
			for k, e := range x {
				walk(e, at+"/"+k)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(doc, "#")
	if doc["openapi"] != "3.0.3" {
		t.Errorf("openapi version %v", doc["openapi"])
	}
}

// scenario is the order TestDocumentExamples sends the document's
// examples in ("operationId/example name"), on a fresh database: ids and
// times in the examples are the ones this order produces.
var scenario = []string{
	"getDocument",
	"listGroups/ok",
	"createGroup/ok", "createGroup/replay", "createGroup/invalid", "createGroup/conflict",
	"getGroup/ok", "updateGroup/ok",
	"createJob/ok", "createJob/replay", "createJob/invalid", "createJob/conflict",
	"applyJob/created", "applyJob/updated",
	"listJobs/ok", "listJobs/unauthorized",
	"getJob/ok", "getJob/notFound",
	"updateJob/ok", "startJob/ok", "stopJob/ok", "triggerJob/ok",
	"listLogs/ok", "getLog/ok", "getLogText/ok", "killLog/ok", "killLog/conflict",
	"listRegistry/ok",
	"exportJobs/ok", "importJobs/ok", "importJobs/dryRun",
	"deleteJob/removable", "deleteGroup/conflict", "deleteGroup/removable",
}

// exampleFixture adds what the log and registry examples read: two logs of
// the seed job (one running, one whose trigger failed) and a live executor
// of the seed group.
func exampleFixture(t *testing.T, e *env) {
	addr := "http://127.0.0.1:9999/"
	testfactory.Log(t, e.store, testfactory.LogOpts{Group: 1, Job: 1, TriggerTime: e.now.Add(-10 * time.Minute), TriggerCode: 200,
		Address: &addr, Handler: schema.Ptr("demoJobHandler"), Param: schema.Ptr(""),
		TriggerMsg: schema.Ptr("Job trigger type：Cron trigger<br>Executor address：" + addr)})
	testfactory.Log(t, e.store, testfactory.LogOpts{Group: 1, Job: 1, TriggerTime: e.now.Add(-5 * time.Minute), TriggerCode: 500,
		TriggerMsg: schema.Ptr("Job trigger type：Cron trigger<br>Trigger result：fail: no executor address")})
	testfactory.Registry(t, e.store, testfactory.RegistryOpts{App: "xxl-job-executor-sample", Addr: addr, At: e.now.Add(-10 * time.Second)})
}

// TestDocumentExamples sends every example of the document in scenario
// order and checks the answer's status, that it is the documented example,
// and that answers and request bodies fit their schemas. With -update the
// answers (from SQLite) are written into openapi.yaml as the examples.
func TestDocumentExamples(t *testing.T) {
	doc := loadDoc(t)
	var root yaml.Node
	if *update {
		raw, _ := os.ReadFile("openapi.yaml")
		if err := yaml.Unmarshal(raw, &root); err != nil {
			t.Fatal(err)
		}
	}
	ops := map[string]operation{}
	for _, o := range operations(doc) {
		ops[o.id] = o
	}
	checkCoverage(t, doc, ops)
	forEachShanghai(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "")
		exampleFixture(t, e)
		for _, step := range scenario {
			id, name, _ := strings.Cut(step, "/")
			o, ok := ops[id]
			if !ok {
				t.Fatalf("%s: no operation %s", step, id)
			}
			if name == "" { // the document itself
				a := e.call(o.method, o.path, nil)
				if a.status != 200 || !bytes.Equal(a.body, e.api.doc) {
					t.Errorf("%s: %d", step, a.status)
				}
				continue
			}
			method, path, body, token, code, want := request(t, doc, o, name)
			a := e.callToken(method, path, body, token)
			if fmt.Sprint(a.status) != code {
				t.Errorf("%s: %s %s answered %d, the document says %s: %s", step, method, path, a.status, code, a.body)
				continue
			}
			var got any
			if err := json.Unmarshal(a.body, &got); err != nil {
				t.Fatalf("%s: not JSON: %s", step, a.body)
			}
			for _, p := range (validator{doc}).check(responseSchema(doc, o, code), got, "answer") {
				t.Errorf("%s: %s", step, p)
			}
			if *update && s.Backend() == schema.SQLite {
				setExample(t, &root, o, code, name, a.body)
				examples(doc, o, code)[name] = map[string]any{"value": got}
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

// request builds a step's request from the named examples, and the
// documented answer: its status and example value.
func request(t *testing.T, doc map[string]any, o operation, name string) (method, path string, body any, token, code string, want any) {
	t.Helper()
	path, token = o.path, testToken
	var query []string
	params := append(append([]any{}, listOf(o.item["parameters"])...), listOf(o.op["parameters"])...)
	for _, p := range params {
		pm := resolve(doc, p)
		ex, ok := obj(obj(pm["examples"])[name])["value"]
		if !ok {
			if pm["in"] == "path" {
				t.Fatalf("%s/%s: path parameter %v has no example %q", o.id, name, pm["name"], name)
			}
			continue
		}
		v := fmt.Sprint(ex)
		switch pm["in"] {
		case "path":
			path = strings.ReplaceAll(path, "{"+pm["name"].(string)+"}", v)
		case "query":
			query = append(query, pm["name"].(string)+"="+url.QueryEscape(v))
		}
	}
	if len(query) > 0 {
		path += "?" + strings.Join(query, "&")
	}
	rb := obj(obj(obj(resolve(doc, o.op["requestBody"])["content"])["application/json"]))
	if ex, ok := obj(obj(rb["examples"])[name])["value"]; ok {
		body = ex
		for _, p := range (validator{doc}).check(obj(rb["schema"]), ex, "request") {
			t.Errorf("%s/%s: %s", o.id, name, p)
		}
	}
	for c := range obj(o.op["responses"]) {
		if ex, ok := examples(doc, o, c)[name]; ok {
			if code != "" {
				t.Fatalf("%s/%s: two responses have the example", o.id, name)
			}
			code, want = c, obj(ex)["value"]
			if tok, ok := obj(ex)["x-token"].(string); ok {
				token = tok
			}
		}
	}
	if code == "" {
		t.Fatalf("%s/%s: no response has the example", o.id, name)
	}
	return o.method, path, body, token, code, want
}

func listOf(v any) []any { l, _ := v.([]any); return l }

func examples(doc map[string]any, o operation, code string) map[string]any {
	r := resolve(doc, obj(o.op["responses"])[code])
	return obj(obj(obj(r["content"])["application/json"])["examples"])
}

func responseSchema(doc map[string]any, o operation, code string) map[string]any {
	r := resolve(doc, obj(o.op["responses"])[code])
	return obj(obj(obj(r["content"])["application/json"])["schema"])
}

// checkCoverage: every operation and every named example is in the scenario.
func checkCoverage(t *testing.T, doc map[string]any, ops map[string]operation) {
	steps := map[string]bool{}
	for _, s := range scenario {
		steps[s] = true
		id, _, _ := strings.Cut(s, "/")
		if _, ok := ops[id]; !ok {
			t.Errorf("scenario step %s: no such operation", s)
		}
	}
	for id, o := range ops {
		var names []string
		for c := range obj(o.op["responses"]) {
			for n := range examples(doc, o, c) {
				names = append(names, n)
			}
		}
		rb := obj(obj(obj(resolve(doc, o.op["requestBody"])["content"])["application/json"]))
		for n := range obj(rb["examples"]) {
			names = append(names, n)
		}
		if len(names) == 0 && !steps[id] {
			t.Errorf("operation %s has no example in the scenario", id)
		}
		for _, n := range names {
			if !steps[id+"/"+n] {
				t.Errorf("example %s/%s is not in the scenario", id, n)
			}
		}
	}
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
		t.Fatalf("%s/%s: examples of shared responses (%s) cannot be updated", o.id, name, ref.Value)
	}
	ex := child(n, "content", "application/json", "examples", name)
	if ex == nil {
		t.Fatalf("%s/%s: no example node", o.id, name)
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

// validator checks a value against the document's schema subset: $ref,
// type, nullable, enum, required, properties, additionalProperties: false,
// items and format date-time.
type validator struct{ doc map[string]any }

func (v validator) check(schema map[string]any, value any, at string) []string {
	s := resolve(v.doc, schema)
	if s == nil {
		return nil
	}
	if value == nil {
		if s["nullable"] == true || s["type"] == nil {
			return nil
		}
		return []string{at + ": null"}
	}
	var bad []string
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, value) }) {
		bad = append(bad, fmt.Sprintf("%s: %v is not one of %v", at, value, enum))
	}
	switch s["type"] {
	case "object":
		m, ok := value.(map[string]any)
		if !ok {
			return append(bad, at+": not an object")
		}
		props := obj(s["properties"])
		for _, r := range listOf(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				bad = append(bad, fmt.Sprintf("%s: %s missing", at, r))
			}
		}
		for k, e := range m {
			if p, ok := props[k]; ok {
				bad = append(bad, v.check(obj(p), e, at+"."+k)...)
			} else if s["additionalProperties"] == false {
				bad = append(bad, fmt.Sprintf("%s: %s is not in the schema", at, k))
			}
		}
	case "array":
		l, ok := value.([]any)
		if !ok {
			return append(bad, at+": not an array")
		}
		for i, e := range l {
			bad = append(bad, v.check(obj(s["items"]), e, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case "string":
		str, ok := value.(string)
		if !ok {
			return append(bad, at+": not a string")
		}
		if s["format"] == "date-time" {
			if _, err := time.Parse(time.RFC3339, str); err != nil {
				bad = append(bad, fmt.Sprintf("%s: %q is not RFC 3339", at, str))
			}
		}
	case "integer":
		if f, ok := value.(float64); !ok || f != float64(int64(f)) {
			bad = append(bad, at+": not an integer")
		}
	case "boolean":
		if _, ok := value.(bool); !ok {
			bad = append(bad, at+": not a boolean")
		}
	}
	return bad
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
