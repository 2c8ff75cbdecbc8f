package galera

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// Round is one schedule round an admin logged at debug level: the span of
// the planned fire times it decided, and whether its commit succeeded
// (false: the commit failed with an unknown outcome, so the round may
// have been applied without the admin firing it).
type Round struct {
	At                  time.Time
	FirstPlan, LastPlan time.Time
	Fires               int
	Committed           bool
}

// AdminLog is what the galera test reads from an admin's JSON log.
type AdminLog struct {
	Rounds    []Round
	Conflicts int // rounds lost to another admin's write
	Errors    int // error-level lines
}

// ReadAdminLog parses an admin's JSON log lines (logging.level.root=debug);
// lines that are not JSON are skipped.
func ReadAdminLog(path string) (AdminLog, error) {
	f, err := os.Open(path)
	if err != nil {
		return AdminLog{}, fmt.Errorf("admin log: %w", err)
	}
	defer f.Close()
	var out AdminLog
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		var l struct {
			Level     string    `json:"level"`
			Time      time.Time `json:"time"`
			Message   string    `json:"message"`
			FirstPlan int64     `json:"first_planned_ms"`
			LastPlan  int64     `json:"last_planned_ms"`
			Fires     int       `json:"fires"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		switch l.Message {
		case "schedule round committed", "schedule round commit failed; its fires are dropped":
			out.Rounds = append(out.Rounds, Round{At: l.Time, FirstPlan: time.UnixMilli(l.FirstPlan),
				LastPlan: time.UnixMilli(l.LastPlan), Fires: l.Fires, Committed: l.Message == "schedule round committed"})
		}
		if strings.Contains(l.Message, "lost a write conflict") {
			out.Conflicts++
		}
		if l.Level == "error" {
			out.Errors++
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("admin log %s: %w", path, err)
	}
	return out, nil
}
