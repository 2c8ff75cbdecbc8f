package schema

import (
	"fmt"
	"time"
)

// dateTimeLayout is how DATETIME values are written: whole seconds of wall
// time in the store's zone, as the Java admin's JDBC session zone produces
// (schema.md §3). Sub-seconds are dropped (MariaDB truncates too).
const dateTimeLayout = "2006-01-02 15:04:05"

// dbTime converts a Go instant to the DATETIME text of the store's zone.
func (s *Store) dbTime(t time.Time) string {
	return t.In(s.loc).Format(dateTimeLayout)
}

func (s *Store) dbTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return s.dbTime(*t)
}

// timeScanner reads a DATETIME column written by either admin, whatever the
// driver hands back (text, bytes or an already-parsed time), as wall time in loc.
type timeScanner struct {
	loc  *time.Location
	dest **time.Time
}

func (ts timeScanner) Scan(v any) error {
	switch x := v.(type) {
	case nil:
		*ts.dest = nil
		return nil
	case time.Time:
		t := time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), x.Nanosecond(), ts.loc)
		*ts.dest = &t
		return nil
	case []byte:
		return ts.parse(string(x))
	case string:
		return ts.parse(x)
	}
	return fmt.Errorf("datetime column: unsupported value %T", v)
}

func (ts timeScanner) parse(s string) error {
	for _, layout := range []string{dateTimeLayout, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05.999999999-07:00", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, ts.loc); err == nil {
			if layout == "2006-01-02T15:04:05Z07:00" || layout == "2006-01-02 15:04:05.999999999-07:00" {
				t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), ts.loc)
			}
			*ts.dest = &t
			return nil
		}
	}
	if s == "0000-00-00 00:00:00" {
		*ts.dest = nil
		return nil
	}
	return fmt.Errorf("datetime column: cannot parse %q", s)
}

func (s *Store) scanTime(dest **time.Time) timeScanner { return timeScanner{loc: s.loc, dest: dest} }
