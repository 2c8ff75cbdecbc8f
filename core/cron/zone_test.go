package cron

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestCheckZoneID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"America/New_York", true},
		{"Europe/Berlin", true},
		{"Asia/Shanghai", true},
		{"America/Argentina/Buenos_Aires", true},
		{"America/Port-au-Prince", true},
		{"Etc/GMT+5", true},
		{"US/Eastern", true}, // a link, which ZoneId.of reads too
		{"UTC", true},
		{"CET", true},
		{"", false},
		{"Local", false},      // Go's own name for the process zone
		{"localtime", false},  // a zoneinfo file, not a zone name
		{"posixrules", false}, // likewise
		{"EST", false},        // ZoneId.of refuses the three legacy abbreviations
		{"america/new_york", false},
		{"America/New York", false},
		{"Mars/Olympus_Mons", false},
		{"../../etc/passwd", false},
		{"/usr/share/zoneinfo/UTC", false},
		{"America//New_York", false},
		{"America/", false},
		{"+08:00", false},
		{"GMT+8", false}, // ZoneId.of reads it as an offset; no tz database name
		{"Asia/Shanghai\x00", false},
		{strings.Repeat("A", 65), false},
	}
	for _, tt := range tests {
		err := CheckZoneID(tt.id)
		if (err == nil) != tt.ok {
			t.Errorf("CheckZoneID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
		}
		var ze *ZoneError
		if err != nil && !errors.As(err, &ze) {
			t.Errorf("CheckZoneID(%q): %T, want *ZoneError", tt.id, err)
		}
	}
}

// TestJavaZoneIDs holds the check to Java's list: every id of
// java.time.ZoneId.getAvailableZoneIds() (JDK 17, testdata/java-zone-ids.txt)
// is accepted, and every name refused on purpose is one ZoneId.of refuses
// (absent from the list), so a zone stored here is one a Java admin reads.
// The JDK alone still lists the SystemV/* ids, which the tz database
// dropped in 2020b: this admin cannot compute them where its tz database
// lacks them, and refuses them there.
func TestJavaZoneIDs(t *testing.T) {
	f, err := os.Open("testdata/java-zone-ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	java := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id := sc.Text(); id != "" && !strings.HasPrefix(id, "#") {
			java[id] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(java) < 500 {
		t.Fatalf("only %d Java ids read", len(java))
	}
	for id := range java {
		if strings.HasPrefix(id, "SystemV/") {
			continue
		}
		if err := CheckZoneID(id); err != nil {
			t.Errorf("Java id %q refused: %v", id, err)
		}
	}
	for id := range notJavaZones {
		if java[id] {
			t.Errorf("%q is refused here but Java's ZoneId.of accepts it", id)
		}
	}
}

func TestZonesLoad(t *testing.T) {
	var z Zones
	def := time.FixedZone("admin", 8*3600)
	if loc, err := z.Load("", def); err != nil || loc != def {
		t.Fatalf(`Load("") = %v, %v; want the default zone`, loc, err)
	}
	a, err := z.Load("America/New_York", def)
	if err != nil || a.String() != "America/New_York" {
		t.Fatalf("Load = %v, %v", a, err)
	}
	if b, _ := z.Load("America/New_York", def); b != a {
		t.Error("second Load did not reuse the loaded zone")
	}
	for range 2 { // the refusal is cached and stays a refusal
		if _, err := z.Load("Mars/Olympus_Mons", def); !errors.Is(err, ErrNoZone) {
			t.Errorf("Load(unknown) = %v, want ErrNoZone", err)
		}
	}
}
