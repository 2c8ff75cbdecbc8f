package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"gopkg.in/yaml.v3"
)

// spec is the OpenAPI 3 document, written in YAML for people and served as
// JSON. TestDocumentMatchesRoutes holds it to the route table and
// TestDocumentExamples sends every example it gives.
//
//go:embed openapi.yaml
var spec []byte

// document is the served JSON, with the server URL under the context path.
func document(contextPath string) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(spec, &v); err != nil {
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
