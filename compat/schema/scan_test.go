package schema

import (
	"strings"
	"testing"
	"time"
)

// The trigger path's column scanners take every form the three drivers
// hand over (MySQL: int64 and []byte; PostgreSQL and SQLite: int64 and
// string) and convert as database/sql would, NULLs included.
func TestColumnScanners(t *testing.T) {
	strs := &shortStrings{}
	var n int
	var n64 int64
	var s string
	var ps *string
	tests := []struct {
		name    string
		col     interface{ Scan(any) error }
		src     any
		check   func() bool
		wantErr string
	}{
		{"int from int64", &intCol{&n}, int64(4096), func() bool { return n == 4096 }, ""},
		{"int from text", &intCol{&n}, []byte("-12"), func() bool { return n == -12 }, ""},
		{"int from string", &intCol{&n}, "7", func() bool { return n == 7 }, ""},
		{"int from NULL", &intCol{&n}, nil, nil, "converting NULL to int is unsupported"},
		{"int from junk", &intCol{&n}, []byte("x"), nil, "converting driver.Value type []uint8"},
		{"int64 from int64", &int64Col{&n64}, int64(1795328526855), func() bool { return n64 == 1795328526855 }, ""},
		{"int64 from text", &int64Col{&n64}, []byte("1795328526000"), func() bool { return n64 == 1795328526000 }, ""},
		{"int64 from NULL", &int64Col{&n64}, nil, nil, "converting NULL to int64 is unsupported"},
		{"string from bytes", &stringCol{&s, strs}, []byte("FIX_RATE"), func() bool { return s == "FIX_RATE" }, ""},
		{"string from string", &stringCol{&s, strs}, "CRON", func() bool { return s == "CRON" }, ""},
		{"string from int64", &stringCol{&s, strs}, int64(5), func() bool { return s == "5" }, ""},
		{"string from NULL", &stringCol{&s, strs}, nil, nil, "converting NULL to string is unsupported"},
		{"null string from bytes", &nullStringCol{&ps, strs}, []byte(""), func() bool { return ps != nil && *ps == "" }, ""},
		{"null string from NULL", &nullStringCol{&ps, strs}, nil, func() bool { return ps == nil }, ""},
		{"long string", &nullStringCol{&ps, strs}, strings.Repeat("x", 100), func() bool { return ps != nil && len(*ps) == 100 }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.col.Scan(tt.src)
			switch {
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			case tt.check != nil && !tt.check():
				t.Fatalf("scanned %d %d %q %v", n, n64, s, ps)
			}
		})
	}
}

// A short value is one shared copy, whatever form it came in, and is not
// the driver's buffer; a long one is a copy of its own; a full table
// starts over.
func TestShortStrings(t *testing.T) {
	strs := &shortStrings{}
	buf := []byte("demoJobHandler")
	a, _ := strs.of(buf)
	copy(buf, "XXXXXXXXXXXXXX") // the driver reuses its buffer
	b, _ := strs.of("demoJobHandler")
	if a != b || *a != "demoJobHandler" {
		t.Fatalf("not shared, or the buffer's: %q %p %p", *a, a, b)
	}
	long := strings.Repeat("p", shortString+1)
	l1, _ := strs.of(long)
	l2, _ := strs.of([]byte(long))
	if l1 == l2 || *l1 != long || *l2 != long {
		t.Fatal("a long value shared")
	}
	for i := range shortStringsMax + 10 {
		_, _ = strs.of(time.Duration(i).String())
	}
	if len(strs.m) > shortStringsMax {
		t.Fatalf("table grew to %d", len(strs.m))
	}
}

// timeCol shares the time of a row whose text is the previous row's, and
// only then; a zero date (NULL-like) is never shared.
func TestTimeColShares(t *testing.T) {
	var dest *time.Time
	c := timeCol{timeScanner: timeScanner{loc: time.UTC, dest: &dest}}
	scan := func(src any) *time.Time {
		t.Helper()
		if err := c.Scan(src); err != nil {
			t.Fatal(err)
		}
		return dest
	}
	a := scan([]byte("2026-01-02 03:04:05"))
	b := scan("2026-01-02 03:04:05")
	if a == nil || a != b {
		t.Fatalf("same text not shared: %v %v", a, b)
	}
	d := scan([]byte("2026-01-02 03:04:06"))
	if d == a || !d.Equal(a.Add(time.Second)) {
		t.Fatalf("other text: %v", d)
	}
	if z := scan([]byte("0000-00-00 00:00:00")); z != nil {
		t.Fatalf("zero date: %v", z)
	}
	if z := scan([]byte("0000-00-00 00:00:00")); z != nil {
		t.Fatalf("zero date again: %v", z)
	}
	if n := scan(nil); n != nil {
		t.Fatalf("NULL: %v", n)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	if p := scan(at); p == nil || p.Hour() != 3 || p.Location() != time.UTC {
		t.Fatalf("time.Time: %v", p)
	}
}
