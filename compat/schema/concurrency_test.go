package schema

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestConcurrentWriters runs the trigger pool's write pattern (save, then
// update trigger info) from 8 goroutines at once, half of them inside
// transactions, beside a reader. On SQLite this must wait on the busy
// timeout rather than fail with "database is locked".
func TestConcurrentWriters(t *testing.T) {
	const workers, perWorker = 8, 100
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		base := at(s, 2024, 6, 1, 0, 0, 0)
		write := func(st *Store, w, i int) error {
			tt := base.Add(time.Duration(w*perWorker+i) * time.Second)
			id, err := st.LogSave(ctx, JobLog{JobGroup: 1, JobID: w + 1, TriggerTime: &tt})
			if err != nil {
				return err
			}
			return st.LogUpdateTriggerInfo(ctx, JobLog{ID: id, TriggerTime: &tt, TriggerCode: 200,
				TriggerMsg: Ptr(fmt.Sprintf("触发 %d/%d 🎉", w, i)), ExecutorAddress: Ptr("http://e:9999/"),
				ExecutorParam: Ptr(fmt.Sprintf("%d-%d", w, i)), ExecutorFailRetryCount: i})
		}
		var wg sync.WaitGroup
		errs := make(chan error, workers+1)
		done := make(chan struct{})
		for w := range workers {
			wg.Go(func() {
				for i := range perWorker {
					var err error
					if w%2 == 0 {
						err = write(s, w, i)
					} else {
						err = s.WithTx(ctx, func(tx *Store) error { return write(tx, w, i) })
					}
					if err != nil {
						errs <- fmt.Errorf("worker %d, write %d: %w", w, i, err)
						return
					}
				}
			})
		}
		var reader sync.WaitGroup
		reader.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, _, err := s.LogPageList(ctx, 0, 20, LogFilter{LogStatus: 3}); err != nil {
					errs <- fmt.Errorf("reader: %w", err)
					return
				}
			}
		})
		wg.Wait()
		close(done)
		reader.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if t.Failed() {
			return
		}

		list, total, err := s.LogPageList(ctx, 0, workers*perWorker+10, LogFilter{})
		mustNoErr(t, err)
		if total != workers*perWorker || len(list) != total {
			t.Fatalf("rows = %d/%d, want %d", len(list), total, workers*perWorker)
		}
		seen := map[string]bool{}
		for _, l := range list {
			var w, i int
			if _, err := fmt.Sscanf(*l.ExecutorParam, "%d-%d", &w, &i); err != nil {
				t.Fatalf("row %d: param %q", l.ID, *l.ExecutorParam)
			}
			want := base.Add(time.Duration(w*perWorker+i) * time.Second)
			if l.JobID != w+1 || l.TriggerCode != 200 || l.ExecutorFailRetryCount != i ||
				*l.TriggerMsg != fmt.Sprintf("触发 %d/%d 🎉", w, i) || !l.TriggerTime.Equal(want) {
				t.Errorf("row %d wrong: %+v", l.ID, l)
			}
			seen[*l.ExecutorParam] = true
		}
		if len(seen) != workers*perWorker {
			t.Errorf("%d distinct rows, want %d", len(seen), workers*perWorker)
		}
	})
}
