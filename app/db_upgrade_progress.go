package app

import (
	"fmt"
	"io"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// upgradeSteps prints `db upgrade`'s steps: "step n/m table [rows] ... "
// then the time it took. While a step runs (an ALTER of a table of
// millions of rows takes minutes), a terminal sees that line redrawn every
// second with the server's share done and the time so far; other output
// gets a line of its own every 10 s.
type upgradeSteps struct {
	w        io.Writer
	terminal bool
	steps    int
	every    time.Duration // the lines of a non-terminal

	prefix string // the running step's "step n/m table [rows: N] ... "
	open   bool   // prefix written, its line not ended
	drawn  bool   // the line was redrawn (terminal)
	last   time.Duration
}

func newUpgradeSteps(w io.Writer, terminal bool, steps int) *upgradeSteps {
	return &upgradeSteps{w: w, terminal: terminal, steps: steps, every: 10 * time.Second}
}

func (u *upgradeSteps) started(i int, st schema.UpgradeStep) {
	u.prefix = fmt.Sprintf("step %d/%d %s [rows: %d] ... ", i+1, u.steps, st.Table, st.Rows)
	u.open, u.drawn, u.last = true, false, 0
	_, _ = fmt.Fprint(u.w, u.prefix)
}

func (u *upgradeSteps) progress(i int, st schema.UpgradeStep, done float64, elapsed time.Duration) {
	if u.terminal {
		_, _ = fmt.Fprintf(u.w, "\r%s%s, %s\033[K", u.prefix, percent(done), elapsed.Round(time.Second))
		u.drawn = true
		return
	}
	if elapsed-u.last < u.every {
		return
	}
	u.last = elapsed
	if u.open {
		_, _ = fmt.Fprintln(u.w)
		u.open = false
	}
	_, _ = fmt.Fprintf(u.w, "  step %d/%d %s: %s done, %s\n", i+1, u.steps, st.Table, percent(done), elapsed.Round(time.Second))
}

func (u *upgradeSteps) finished(i int, st schema.UpgradeStep, took time.Duration) {
	took = took.Round(time.Millisecond)
	switch {
	case u.drawn:
		_, _ = fmt.Fprintf(u.w, "\r%s%s\033[K\n", u.prefix, took)
	case u.open:
		_, _ = fmt.Fprintf(u.w, "%s\n", took)
	default:
		_, _ = fmt.Fprintf(u.w, "step %d/%d %s done in %s\n", i+1, u.steps, st.Table, took)
	}
	u.open, u.drawn = false, false
}
