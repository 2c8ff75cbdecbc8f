package cluster

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// WaitHandover waits for a handover: a trigger second s at or after from
// whose fires, and those of s+1, came from an admin in want (any admin
// when want is empty) while those of s-1 came from another. It returns
// that admin and s, once s+1 has fired.
//
// It finds the admin holding the most queued fires without looking into
// any process. The round that pushes second s into a ring runs at s-5
// (PRE_READ_MS, scheduler.md §3.2); an admin that loses the race for
// schedule_lock reads nothing and sleeps 5 s (step 7). So the admin that
// won the rounds at s-5 and s-4 did so while the others slept, and did
// the rounds s-3…s-1 too: at s+1 its ring holds the fires of s+2…s+4, the
// others' hold nothing before s+5. Killing it at once loses the most.
// One second of ownership is not enough: an admin that won only the round
// at s-5 (another was awake for s-4, as a CI run saw) holds nothing once
// s has fired. Callers check afterwards that the kill did lose fires.
func (e *Executor) WaitHandover(ctx context.Context, from time.Time, want ...string) (string, int64, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for sec := from.Unix(); ; {
		now := time.Now().Unix()
		for ; sec <= now; sec++ {
			cur, prev, next := e.Owner(sec), e.Owner(sec-1), e.Owner(sec+1)
			if (cur == "" && sec >= now-1) || (next == "" && sec+1 >= now-1) {
				break // may still come: look again
			}
			if cur != "" && prev != "" && prev != cur && next == cur && (len(want) == 0 || slices.Contains(want, cur)) {
				return cur, sec, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", 0, fmt.Errorf("no handover since %s: %w", from.Format("15:04:05"), ctx.Err())
		case <-tick.C:
		}
	}
}

// SendingSince is the first second of the run of seconds up to a kill
// that the killed admin was still sending: walking back from the kill's
// second while each second's first fire came from it, or nothing fired
// in it at all, up to limit seconds. Their unsent fires sat in its
// trigger pool (which runs behind its ring on a busy machine) and died
// with it.
func (e *Executor) SendingSince(token string, killed time.Time, limit int) time.Time {
	sec := killed.Unix()
	for n := 0; n < limit; n++ {
		if o := e.Owner(sec - 1); o != "" && o != token {
			break
		}
		sec--
	}
	return time.Unix(sec, 0)
}
