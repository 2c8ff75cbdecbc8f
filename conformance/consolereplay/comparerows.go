package consolereplay

import (
	"fmt"
	"sort"
)

// compareRows compares db_after rows in order, column by column.
func (c *checker) compareRows(path string, want, got []map[string]*string) {
	if len(want) != len(got) {
		c.add(path+" (rows)", rowIDs(want), rowIDs(got))
		return
	}
	for i := range want {
		cols := make([]string, 0, len(want[i]))
		for col := range want[i] {
			cols = append(cols, col)
		}
		sort.Strings(cols)
		for _, col := range cols {
			c.compareColumn(fmt.Sprintf("%s[%d].%s", path, i, col), dbRule(col, want[i]), want[i][col], got[i][col])
		}
	}
}

func (c *checker) compareColumn(path string, r rule, want, got *string) {
	if got != nil {
		n := c.norm.apply(*got)
		got = &n
	}
	asAny := func(s *string) any {
		if s == nil {
			return nil
		}
		return *s
	}
	switch r {
	case relTime:
		c.compareTime(path, asAny(want), asAny(got), parseDBTime)
	case shape:
		if !sameShape(asAny(want), asAny(got)) {
			c.add(path, want, got)
		}
	case alarmRace:
		if !textIs(got, "0") && !textIs(got, "-1") && !textIs(got, "2") {
			c.add(path, "0 (or -1, 2 once the fail monitor passed)", got)
		}
	case randomToken:
		if deref(want) != deref(got) && ((want == nil) != (got == nil) || (want != nil && (!hexToken(*want) || !hexToken(*got)))) {
			c.add(path, want, got)
		}
	case autoAddress:
		if deref(want) == "" && deref(got) == "" {
			return
		}
		fallthrough
	default:
		if (want == nil) != (got == nil) || (want != nil && *want != *got) {
			c.add(path, want, got)
		}
	}
}

func rowIDs(rows []map[string]*string) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = deref(r["id"])
	}
	return ids
}
