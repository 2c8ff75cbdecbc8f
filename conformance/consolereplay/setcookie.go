package consolereplay

import (
	"sort"
	"strings"
)

// setCookie is a parsed Set-Cookie header: name, value and attributes
// (lower-case name → value, "" for flags such as HttpOnly).
type setCookie struct {
	name, value string
	attrs       map[string]string
}

func parseSetCookie(h string) setCookie {
	parts := strings.Split(h, ";")
	name, value, _ := strings.Cut(strings.TrimSpace(parts[0]), "=")
	c := setCookie{name: name, value: value, attrs: map[string]string{}}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if k != "" {
			c.attrs[strings.ToLower(k)] = v
		}
	}
	return c
}

// compareCookies compares Set-Cookie headers by cookie name: the value (as
// the generation compares it) and every attribute; of Expires only its
// presence (its date is volatile).
func (c *checker) compareCookies(want, got []string) {
	gotByName := map[string]setCookie{}
	for _, h := range got {
		sc := parseSetCookie(h)
		gotByName[sc.name] = sc
	}
	for _, h := range want {
		w := parseSetCookie(h)
		g, ok := gotByName[w.name]
		field := "cookie " + w.name
		if !ok {
			c.add(field, h, absent{})
			continue
		}
		delete(gotByName, w.name)
		same := w.value == g.value
		if c.sameCookie != nil {
			same = c.sameCookie(w.name, w.value, g.value)
		}
		if !same {
			c.add(field+" value", w.value, g.value)
		}
		names := map[string]bool{}
		for k := range w.attrs {
			names[k] = true
		}
		for k := range g.attrs {
			names[k] = true
		}
		keys := make([]string, 0, len(names))
		for k := range names {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, wok := w.attrs[k]
			gv, gok := g.attrs[k]
			switch {
			case !wok:
				c.add(field+" "+k, absent{}, gv)
			case !gok:
				c.add(field+" "+k, wv, absent{})
			case k != "expires" && wv != gv:
				c.add(field+" "+k, wv, gv)
			}
		}
	}
	names := make([]string, 0, len(gotByName))
	for n := range gotByName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.add("cookie "+n, absent{}, n)
	}
}
