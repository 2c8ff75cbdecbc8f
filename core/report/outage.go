package report

import (
	"context"

	"github.com/rs/zerolog"
)

// outage logs a failing duty once when it starts failing and once when it
// works again, so a database outage of hours does not write a line a minute.
// It belongs to one loop goroutine and needs no lock.
type outage struct {
	what    string
	log     zerolog.Logger
	failing bool
}

func (o *outage) observe(ctx context.Context, err error) {
	switch {
	case err != nil && ctx.Err() != nil:
		// Stopping cancelled the pass; that is not an outage.
	case err != nil && !o.failing:
		o.failing = true
		o.log.Error().Err(err).Msg(o.what + " failed; retrying every interval, logged again on recovery")
	case err == nil && o.failing:
		o.failing = false
		o.log.Info().Msg(o.what + " recovered")
	}
}
