package app

import (
	"fmt"
	"io"
	"time"
)

// progressLine shows a long command's progress on a terminal: one line
// redrawn in place, at most once per every and not before every has
// passed since the start (a quick command shows none). Elsewhere (a file,
// a pipe) it writes nothing: the command's summary says what happened.
type progressLine struct {
	w        io.Writer
	terminal bool
	every    time.Duration
	now      func() time.Time

	last  time.Time
	drawn bool
}

func newProgressLine(w io.Writer, terminal bool, every time.Duration, now func() time.Time) *progressLine {
	return &progressLine{w: w, terminal: terminal, every: every, now: now, last: now()}
}

// Show redraws the line with text when its turn has come.
func (p *progressLine) Show(text string) {
	if !p.terminal {
		return
	}
	now := p.now()
	if now.Sub(p.last) < p.every {
		return
	}
	// \033[K clears what a longer earlier text left.
	_, _ = fmt.Fprintf(p.w, "\r%s\033[K", text)
	p.last, p.drawn = now, true
}

// Clear removes a drawn line, so what follows starts on a clean one.
func (p *progressLine) Clear() {
	if p.drawn {
		_, _ = fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// percent writes a share done (0–1) or "—" when the server does not say.
func percent(done float64) string {
	if done < 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", done*100)
}
