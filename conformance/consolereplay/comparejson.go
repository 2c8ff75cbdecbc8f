package consolereplay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

func (c *checker) compareJSONBody(recorded json.RawMessage, got []byte) {
	want, err := decodeJSON(recorded)
	if err != nil {
		c.add("body", "recorded JSON ("+err.Error()+")", string(recorded))
		return
	}
	g, err := decodeJSON(got)
	if err != nil {
		c.add("body", want, "not JSON: "+string(got))
		return
	}
	c.compareValue("body", want, g, exact)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// compareValue compares a recorded and an observed JSON value at path.
func (c *checker) compareValue(path string, want, got any, r rule) {
	if s, ok := got.(string); ok {
		got = c.norm.apply(s)
	}
	switch r {
	case relTime:
		c.compareTime(path, want, got, parseBodyTime)
		return
	case epochTime:
		w, ok1 := epochMillis(want)
		g, ok2 := epochMillis(got)
		if !ok1 || !ok2 || !c.frame.same(w, g) {
			c.add(path+" (time relative to the fixture)", want, got)
		}
		return
	case shape:
		if !sameShape(want, got) {
			c.add(path, want, got)
		}
		return
	case shapeList:
		wl, wok := want.([]any)
		gl, gok := got.([]any)
		if !wok || !gok {
			c.compareValue(path, want, got, exact)
			return
		}
		if len(wl) != len(gl) {
			c.add(path+" (length)", len(wl), len(gl))
			return
		}
		for i := range wl {
			if !sameShape(wl[i], gl[i]) {
				c.add(fmt.Sprintf("%s[%d]", path, i), wl[i], gl[i])
			}
		}
		return
	case typeOnly:
		if jsonType(want) != jsonType(got) {
			c.add(path+" (type)", jsonType(want), jsonType(got))
		}
		return
	case alarmRace:
		if !numberIs(got, "0") && !numberIs(got, "-1") && !numberIs(got, "2") {
			c.add(path, "0 (or -1, 2 once the fail monitor passed)", got)
		}
		return
	case autoAddress:
		if (want == nil || want == "") && (got == nil || got == "") {
			return
		}
	case randomToken:
		ws, _ := want.(string)
		gs, _ := got.(string)
		if ws != gs && ((want == nil) != (got == nil) || (want != nil && (!hexToken(ws) || !hexToken(gs)))) {
			c.add(path, want, got)
		}
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			c.add(path, want, got)
			return
		}
		c.compareObject(path, w, g)
	case []any:
		g, ok := got.([]any)
		if !ok {
			c.add(path, want, got)
			return
		}
		c.compareArray(path, w, g)
	default:
		if !equalScalar(want, got) {
			c.add(path, want, got)
		}
	}
}

func equalScalar(want, got any) bool {
	if jsonType(want) != jsonType(got) {
		return false
	}
	if w, ok := want.(json.Number); ok {
		return w.String() == got.(json.Number).String()
	}
	return want == got
}

// compareObject compares key sets and values; key order is not compared.
func (c *checker) compareObject(path string, want, got map[string]any) {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, ok := got[k]
		if !ok {
			c.add(path+"."+k, want[k], absent{})
			continue
		}
		c.compareValue(path+"."+k, want[k], g, bodyRule(c.endpoint, path, k, want))
	}
	var extra []string
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		c.add(path+"."+k, absent{}, got[k])
	}
}

// compareArray compares element by element. Lists of entities are first
// compared by their id sequence, so one missing row is one mismatch and
// the rows are then compared by id.
func (c *checker) compareArray(path string, want, got []any) {
	wids, wok := entityIDs(want)
	gids, gok := entityIDs(got)
	if wok && gok && !equalStrings(wids, gids) {
		c.add(path+" (ids)", wids, gids)
		byID := map[string]any{}
		for i, id := range gids {
			byID[id] = got[i]
		}
		for i, id := range wids {
			if g, ok := byID[id]; ok {
				c.compareValue(fmt.Sprintf("%s[%d]", path, i), want[i], g, exact)
			}
		}
		return
	}
	if len(want) != len(got) {
		c.add(path+" (length)", len(want), len(got))
	}
	for i := 0; i < len(want) && i < len(got); i++ {
		c.compareValue(fmt.Sprintf("%s[%d]", path, i), want[i], got[i], exact)
	}
}

// entityIDs returns the "id" of each element if every element is an
// object with a numeric id.
func entityIDs(list []any) ([]string, bool) {
	if len(list) == 0 {
		return nil, false
	}
	ids := make([]string, len(list))
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		n, ok := m["id"].(json.Number)
		if !ok {
			return nil, false
		}
		ids[i] = n.String()
	}
	return ids, true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
