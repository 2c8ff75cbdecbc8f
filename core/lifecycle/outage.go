package lifecycle

import (
	"context"

	"github.com/rs/zerolog"
)

// Outage logs a failing loop once when it starts failing and once when it
// works again, so a database outage of hours does not write a line a pass.
// It belongs to one loop goroutine and needs no lock.
type Outage struct {
	What    string // e.g. "fail monitor pass"
	Log     zerolog.Logger
	failing bool
}

// Observe records the result of one pass run under ctx.
func (o *Outage) Observe(ctx context.Context, err error) {
	switch {
	case err != nil && ctx.Err() != nil:
		// Stopping cancelled the pass; that is not an outage.
	case err != nil && !o.failing:
		o.failing = true
		o.Log.Error().Err(err).Msg(o.What + " failed; retrying every interval, logged again on recovery")
	case err == nil && o.failing:
		o.failing = false
		o.Log.Info().Msg(o.What + " recovered")
	}
}
