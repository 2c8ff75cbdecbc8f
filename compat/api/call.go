package api

import (
	"context"
	"fmt"
	"time"
)

// callWithin runs f with a deadline and returns by the deadline even if f
// ignores its context: the executor must get an answer before its own 3 s
// read timeout. f then keeps running in the background with a cancelled
// context; a late success is harmless because the executor retries
// (registry is an upsert, a repeated callback is ignored, §2.5 step 2.2).
// A panic in f becomes an error instead of killing the process, since it
// runs outside net/http's per-request recovery.
func callWithin(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v", p)
			}
		}()
		done <- f(ctx)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		select {
		case err := <-done: // finished at the same moment: trust the result
			return err
		default:
			return fmt.Errorf("gave up waiting: %w", ctx.Err())
		}
	}
}
