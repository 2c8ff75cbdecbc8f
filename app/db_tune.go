package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// isTerminal tells whether w is a terminal (progress redrawn in place)
// rather than a file or pipe (a line per step).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// runDBTune is `db tune [--apply]`: the indexes 3.4.2 added that this
// database lacks, with their DDL and time; built one by one with --apply.
func runDBTune(ctx context.Context, store *schema.Store, apply, terminal bool, w io.Writer) error {
	p, err := store.PlanTune(ctx)
	if err != nil {
		return err
	}
	_, _ = fmt.Fprintf(w, "xxl_job_log: about %d rows (the server's estimate)\n", p.Rows)
	for _, name := range p.Present {
		_, _ = fmt.Fprintf(w, "present: %s\n", name)
	}
	if len(p.Missing) == 0 {
		_, _ = fmt.Fprintln(w, "nothing to do: the database has every index db tune offers")
		return nil
	}
	var total time.Duration
	for _, st := range p.Missing {
		total += st.Estimate
		how := "the table stays readable and writable while it builds"
		if !st.Online {
			how = "the database refuses writes while it builds (no online DDL): stop the admins first"
		}
		_, _ = fmt.Fprintf(w, "\nindex %s (%s), as %s has it: serves %s\n  %s;\n  -- %s; about %s on this table\n",
			st.Name, st.Columns, st.Origin, st.Serves, st.DDL, how, roughly(st.Estimate))
	}
	if !apply {
		_, _ = fmt.Fprintf(w, "\nnothing changed: run `xxl-admin-go db tune --apply` to build them (about %s in all), or run the DDL yourself\n", roughly(total))
		return nil
	}
	for i, st := range p.Missing {
		began := time.Now()
		_, _ = fmt.Fprintf(w, "\n[%d/%d] building %s …", i+1, len(p.Missing), st.Name)
		if !terminal {
			_, _ = fmt.Fprintln(w)
		}
		last := time.Now()
		err := store.ApplyTune(ctx, st, time.Second, func(done float64) {
			elapsed := time.Since(began).Round(time.Second)
			pct := "—"
			if done >= 0 {
				pct = fmt.Sprintf("%.0f%%", done*100)
			}
			switch {
			case terminal:
				_, _ = fmt.Fprintf(w, "\r[%d/%d] building %s … %s, %s", i+1, len(p.Missing), st.Name, pct, elapsed)
			case time.Since(last) >= 10*time.Second:
				last = time.Now()
				_, _ = fmt.Fprintf(w, "  %s: %s done, %s\n", st.Name, pct, elapsed)
			}
		})
		if terminal {
			_, _ = fmt.Fprintln(w)
		}
		if err != nil {
			return err
		}
		_, _ = fmt.Fprintf(w, "built %s in %s (estimated %s)\n", st.Name, time.Since(began).Round(100*time.Millisecond), roughly(st.Estimate))
	}
	return nil
}

// roughly writes an estimate to the unit that matters.
func roughly(d time.Duration) string {
	switch {
	case d < time.Second:
		return "under a second"
	case d < time.Minute:
		return d.Round(time.Second).String()
	default:
		return d.Round(time.Minute).String()
	}
}
