package schema

import (
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// The column scanners of the trigger path's reads (JobScheduleQuery,
// JobTriggerLoad): thousands of rows a second, where database/sql's own
// conversions allocated for nearly every column — an integer went through
// a string on its way into an int, a nullable string through a reflect.New
// and a copy. Each query makes its scanners once, bound to the fields of
// one row variable that every row is scanned into; strings that repeat
// across jobs come from the store's table of short strings.

// intCol scans an integer column into an int.
type intCol struct{ p *int }

func (c *intCol) Scan(src any) error {
	if v, ok := src.(int64); ok {
		*c.p = int(v)
		return nil
	}
	if src == nil {
		return fmt.Errorf("converting NULL to int is unsupported")
	}
	var n sql.NullInt64 // any other form, as database/sql converts it
	if err := n.Scan(src); err != nil {
		return err
	}
	*c.p = int(n.Int64)
	return nil
}

// int64Col scans an integer column into an int64.
type int64Col struct{ p *int64 }

func (c *int64Col) Scan(src any) error {
	if v, ok := src.(int64); ok {
		*c.p = v
		return nil
	}
	if src == nil {
		return fmt.Errorf("converting NULL to int64 is unsupported")
	}
	var n sql.NullInt64
	if err := n.Scan(src); err != nil {
		return err
	}
	*c.p = n.Int64
	return nil
}

// stringCol scans a NOT NULL text column into a string.
type stringCol struct {
	p    *string
	strs *shortStrings
}

func (c *stringCol) Scan(src any) error {
	if src == nil {
		return fmt.Errorf("converting NULL to string is unsupported")
	}
	s, err := c.strs.of(src)
	if err == nil {
		*c.p = *s
	}
	return err
}

// nullStringCol scans a nullable text column into a *string, nil for NULL.
// The pointer may be shared with other rows: nothing writes through the
// string pointers of a JobInfo.
type nullStringCol struct {
	p    **string
	strs *shortStrings
}

func (c *nullStringCol) Scan(src any) error {
	if src == nil {
		*c.p = nil
		return nil
	}
	s, err := c.strs.of(src)
	if err == nil {
		*c.p = s
	}
	return err
}

// timeCol scans a DATETIME column as timeScanner does, sharing the
// *time.Time of the previous row when the column's text is the same (the
// GLUE update times of jobs made or imported together): nothing writes
// through the time pointers of a JobInfo.
type timeCol struct {
	timeScanner
	text string     // the last value's text …
	last *time.Time // … and time, nil when there is none to share
}

func (c *timeCol) Scan(src any) error {
	switch v := src.(type) {
	case []byte:
		if c.last != nil && string(v) == c.text {
			*c.dest = c.last
			return nil
		}
	case string:
		if c.last != nil && v == c.text {
			*c.dest = c.last
			return nil
		}
	}
	if err := c.timeScanner.Scan(src); err != nil {
		return err
	}
	c.text, c.last = "", nil
	if *c.dest != nil {
		switch v := src.(type) {
		case []byte:
			c.text, c.last = string(v), *c.dest
		case string:
			c.text, c.last = v, *c.dest
		}
	}
	return nil
}

// shortStrings hands out one shared copy of each short text value it has
// seen (a job handler, a route, a GLUE type, a FIX_RATE conf, an empty
// parameter): the same few values fill every row. It is bounded, and
// starts over when full.
type shortStrings struct {
	mu sync.Mutex
	m  map[string]*string
}

const (
	// shortString is the longest value kept: longer ones (GLUE sources,
	// parameters) are mostly one job's own.
	shortString = 64
	// shortStringsMax bounds the table.
	shortStringsMax = 4096
)

// of returns src (text as []byte or string) as a *string, shared when short.
func (t *shortStrings) of(src any) (*string, error) {
	switch v := src.(type) {
	case []byte:
		if len(v) > shortString {
			s := string(v)
			return &s, nil
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if p, ok := t.m[string(v)]; ok {
			return p, nil
		}
		s := string(v)
		return t.keep(s), nil
	case string:
		if len(v) > shortString {
			return &v, nil
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if p, ok := t.m[v]; ok {
			return p, nil
		}
		return t.keep(v), nil
	}
	var n sql.NullString // any other form, as database/sql converts it
	if err := n.Scan(src); err != nil {
		return nil, err
	}
	return &n.String, nil
}

// keep adds s; called with t.mu held.
func (t *shortStrings) keep(s string) *string {
	if t.m == nil || len(t.m) >= shortStringsMax {
		t.m = make(map[string]*string)
	}
	p := &s
	t.m[s] = p
	return p
}
