package cluster

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dump writes the fires and the group's log rows as tab-separated files into
// dir, for looking into a failed run.
func (d *DB) Dump(ctx context.Context, dir string, group int, fires []Fire) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "fires.tsv"))
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for _, x := range fires {
		fmt.Fprintf(w, "%d\t%d\t%s\n", x.JobID, x.LogID, x.At.UTC().Format("15:04:05.000000"))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("dump fires: %w", err)
	}
	rows, err := d.SQL.QueryContext(ctx, "SELECT id, job_id, trigger_time, trigger_code, COALESCE(trigger_msg, '')"+
		" FROM xxl_job_log WHERE job_group = ? ORDER BY id", group)
	if err != nil {
		return fmt.Errorf("dump log: %w", err)
	}
	defer rows.Close()
	g, err := os.Create(filepath.Join(dir, "log.tsv"))
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	defer g.Close()
	w = bufio.NewWriter(g)
	for rows.Next() {
		var id, job, code int64
		var at sql.NullString
		var msg string
		if err := rows.Scan(&id, &job, &at, &code, &msg); err != nil {
			return fmt.Errorf("dump log: %w", err)
		}
		if len(msg) > 60 {
			msg = msg[:60]
		}
		fmt.Fprintf(w, "%d\t%d\t%s\t%d\t%q\n", id, job, at.String, code, msg)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("dump log: %w", err)
	}
	return w.Flush()
}

// LoadAverage is the machine's 1, 5 and 15 minute load averages, for the
// failure messages of timing tests: on an overloaded machine rounds and
// triggers run late past what the counts can place.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
