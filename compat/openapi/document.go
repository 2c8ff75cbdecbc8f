package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"gopkg.in/yaml.v3"
)

// spec is the OpenAPI 3 document, written in YAML for people and served as
// JSON. The tests validate the served form with kin-openapi, hold it to the
// route table, check every request and answer of theirs against it, and
// send its examples in the order of a first session.
//
//go:embed openapi.yaml
var spec []byte

// specWorkflows is the part of the document that describes the workflow
// endpoints: its paths and schemas join spec's when workflows are on.
//
//go:embed openapi_workflows.yaml
var specWorkflows []byte

// document is the served JSON, with the server URL under the context path.
func document(contextPath string) ([]byte, error) {
	return render(spec, contextPath)
}

// documentWith is document with the workflow endpoints when workflows is
// true.
func documentWith(contextPath string, workflows bool) ([]byte, error) {
	if !workflows {
		return document(contextPath)
	}
	var base, extra map[string]any
	if err := yaml.Unmarshal(spec, &base); err != nil {
		return nil, fmt.Errorf("read openapi.yaml: %w", err)
	}
	if err := yaml.Unmarshal(specWorkflows, &extra); err != nil {
		return nil, fmt.Errorf("read openapi_workflows.yaml: %w", err)
	}
	for _, part := range []string{"paths", "components.schemas"} {
		dst, src := section(base, part), section(extra, part)
		if dst == nil || src == nil {
			return nil, fmt.Errorf("openapi documents: no %s", part)
		}
		for k, v := range src {
			dst[k] = v
		}
	}
	if tags, ok := extra["tags"].([]any); ok {
		base["tags"] = append(base["tags"].([]any), tags...)
	}
	merged, err := yaml.Marshal(base)
	if err != nil {
		return nil, err
	}
	return render(merged, contextPath)
}

// section is the mapping at a dotted path of a document.
func section(doc map[string]any, path string) map[string]any {
	cur := doc
	for _, k := range strings.Split(path, ".") {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// render turns a YAML document into the served JSON.
func render(src []byte, contextPath string) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("read openapi.yaml: %w", err)
	}
	doc, ok := jsonable(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("openapi.yaml is not a mapping")
	}
	doc["servers"] = []any{map[string]any{"url": contextPath + Base}}
	return json.Marshal(doc)
}

// jsonable turns YAML's maps into JSON objects.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonable(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
	}
	return v
}

func (a *API) getDocument(c *call) error {
	write(c.w, http.StatusOK, a.doc)
	return nil
}
