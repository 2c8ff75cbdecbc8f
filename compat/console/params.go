package console

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// maxFormBytes bounds a console request body (GLUE sources are the largest
// legitimate ones).
const maxFormBytes = 10 << 20

// errBadNumber is a parameter that does not convert to a number: Spring
// answers HTTP 400 (console.md §1.3).
var errBadNumber = errors.New("parameter is not a number")

// missingParam is a required int parameter absent or empty: Java fails with
// an IllegalStateException rendered as code 500; we say plainly what is missing.
type missingParam struct{ name string }

func (e *missingParam) Error() string {
	return fmt.Sprintf("Required int parameter '%s' is not present", e.name)
}

// form holds a request's parameters the way the servlet API merges them:
// query string first, then the url-encoded body; the first value wins.
type form struct {
	vals url.Values
}

// readForm parses the query and a url-encoded body of at most maxFormBytes.
func readForm(w http.ResponseWriter, r *http.Request) (form, error) {
	vals := url.Values{}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		q = url.Values{} // like Tomcat: a malformed query string yields what parsed
	}
	for k, v := range q {
		vals[k] = append(vals[k], v...)
	}
	ct := r.Header.Get("Content-Type")
	if r.Body != nil && strings.HasPrefix(strings.ToLower(ct), "application/x-www-form-urlencoded") {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxFormBytes))
		if err != nil {
			return form{}, fmt.Errorf("read form: %w", err)
		}
		b, err := url.ParseQuery(string(body))
		if err != nil {
			return form{}, fmt.Errorf("parse form: %w", err)
		}
		for k, v := range b {
			vals[k] = append(vals[k], v...)
		}
	}
	return form{vals: vals}, nil
}

// str is a String parameter: nil when absent (Java null), else the first value.
func (f form) str(name string) *string {
	v, ok := f.vals[name]
	if !ok || len(v) == 0 {
		return nil
	}
	return &v[0]
}

// text is a String parameter with absent read as "".
func (f form) text(name string) string {
	if p := f.str(name); p != nil {
		return *p
	}
	return ""
}

// intOr is an int parameter with a default for absent or empty values.
func (f form) intOr(name string, def int) (int, error) {
	p := f.str(name)
	if p == nil || strings.TrimSpace(*p) == "" {
		return def, nil
	}
	return springInt(*p)
}

// intReq is an int parameter without default: absent or empty is a
// missingParam, as Java's primitive parameters fail.
func (f form) intReq(name string) (int, error) {
	p := f.str(name)
	if p == nil || strings.TrimSpace(*p) == "" {
		return 0, &missingParam{name: name}
	}
	return springInt(*p)
}

// int64Req is intReq for long parameters.
func (f form) int64Req(name string) (int64, error) {
	p := f.str(name)
	if p == nil || strings.TrimSpace(*p) == "" {
		return 0, &missingParam{name: name}
	}
	return springNumber(*p, 64)
}

// beanInt is an int property of a form-bound bean (the job and group
// forms): absent leaves the zero value, anything present — even empty —
// must convert, or Spring answers 400.
func (f form) beanInt(name string) (int, error) {
	p := f.str(name)
	if p == nil {
		return 0, nil
	}
	return springInt(*p)
}

// beanInt64 is beanInt for long properties.
func (f form) beanInt64(name string) (int64, error) {
	p := f.str(name)
	if p == nil {
		return 0, nil
	}
	return springNumber(*p, 64)
}

// springInt converts like Spring's NumberUtils.parseNumber for int: every
// whitespace character removed, decimal or 0x/# hex, 32-bit range.
func springInt(s string) (int, error) {
	n, err := springNumber(s, 32)
	return int(n), err
}

func springNumber(s string, bits int) (int64, error) {
	t := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	neg := strings.HasPrefix(t, "-")
	body := strings.TrimPrefix(t, "-")
	base := 10
	switch {
	case strings.HasPrefix(body, "0x"), strings.HasPrefix(body, "0X"):
		body, base = body[2:], 16
	case strings.HasPrefix(body, "#"):
		body, base = body[1:], 16
	}
	if body == "" || strings.HasPrefix(body, "+") && base == 16 {
		return 0, errBadNumber
	}
	if neg {
		body = "-" + body
	}
	n, err := strconv.ParseInt(body, base, bits)
	if err != nil {
		return 0, errBadNumber
	}
	return n, nil
}
