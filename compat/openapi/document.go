package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"gopkg.in/yaml.v3"
)

// spec is the OpenAPI 3 document, written in YAML for people and served as
// JSON. The tests validate the served form with kin-openapi, hold it to the
// route table, check every request and answer of theirs against it, and
// send its examples in the order of a first session.
//
//go:embed openapi.yaml
var spec []byte

// document is the served JSON, with the server URL under the context path.
func document(contextPath string) ([]byte, error) {
	return render(spec, contextPath)
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
