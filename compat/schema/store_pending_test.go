package schema

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPendingTablePrepared: Prepare creates our own table on an empty
// database of either generation and on an existing one, reports it once,
// leaves it out when asked, and the schema check neither warns of it nor
// refuses it (it is not an xxl_job_* table of Java's).
func TestPendingTablePrepared(t *testing.T) {
	for _, gen := range []Generation{Gen2, Gen3} {
		t.Run(string(gen), func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				res, err := s.Prepare(ctx, PrepareOptions{Create: gen})
				mustNoErr(t, err)
				if !res.Created || !res.PendingCreated {
					t.Fatalf("first Prepare = %+v, want the tables and %s created", res, PendingTable)
				}
				again, err := s.Prepare(ctx, PrepareOptions{})
				mustNoErr(t, err)
				if again.PendingCreated || len(again.Warnings) != 0 || again.Generation != gen {
					t.Fatalf("second Prepare = %+v, want generation %s, nothing created or warned of", again, gen)
				}
				if n, err := s.PendingCount(ctx); err != nil || n != 0 {
					t.Fatalf("PendingCount = %d, %v", n, err)
				}
			})
		})
	}
}

// TestPendingTableSkipped: with SkipPendingTable an existing database is
// left without our table, and a later Prepare without it creates it.
func TestPendingTableSkipped(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		res, err := s.Prepare(ctx, PrepareOptions{SkipPendingTable: true})
		mustNoErr(t, err)
		if res.PendingCreated {
			t.Fatal("SkipPendingTable created the table")
		}
		if _, err := s.PendingCount(ctx); err == nil {
			t.Fatalf("%s exists although it was skipped", PendingTable)
		}
		res, err = s.Prepare(ctx, PrepareOptions{})
		mustNoErr(t, err)
		if !res.PendingCreated {
			t.Fatal("Prepare on a database without the table did not create it")
		}
	})
}

// TestPendingTableWrongShape: a table of that name lacking a column is
// refused with a message saying what to do, not used.
func TestPendingTableWrongShape(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		_, err := s.Prepare(ctx, PrepareOptions{SkipPendingTable: true})
		mustNoErr(t, err)
		rawExec(t, s, "CREATE TABLE xxl_job_pending_trigger (id bigint NOT NULL PRIMARY KEY, claim bigint NOT NULL)")
		_, err = s.Prepare(ctx, PrepareOptions{})
		if !errors.Is(err, ErrUnsupportedSchema) {
			t.Fatalf("Prepare = %v, want ErrUnsupportedSchema", err)
		}
		for _, want := range []string{"lease_until", "xxl.job.durable-triggers=false"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
		}
	})
}

// pendingRow is a decided child trigger held by claim until lease.
func pendingRow(source int64, seq int, claim int64, lease time.Time) PendingTrigger {
	return PendingTrigger{Claim: claim, Owner: "admin-a", LeaseUntil: lease, Stage: PendingDecided, Kind: "PARENT",
		JobID: 7, SourceLogID: source, Seq: seq, FailRetryCount: -1, DecidedAt: lease.Add(-time.Minute)}
}

// TestPendingLifecycle walks one trigger through its stages as the flow
// does, and checks that every step is a compare-and-set on the claim.
func TestPendingLifecycle(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.UnixMilli(1_700_000_000_000)
		param, sharding := "p1", "1/3"
		retry := PendingTrigger{Claim: 11, Owner: "admin-a", LeaseUntil: now.Add(time.Minute), Kind: "RETRY", JobID: 3,
			SourceLogID: 100, FailRetryCount: 2, ExecutorParam: &param, ShardingParam: &sharding, DecidedAt: now}
		child := pendingRow(100, 0, 12, now.Add(time.Minute))
		mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{retry, child}))
		// The same decisions again (another delivery, another monitor):
		// skipped, whatever their claims.
		dup := retry
		dup.Claim = 13
		mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{dup}))
		if n, err := s.PendingCount(ctx); err != nil || n != 2 {
			t.Fatalf("PendingCount after a repeated decision = %d, %v; want 2", n, err)
		}

		held := heldIn(t, s, []int64{11, 12, 13}, PendingDecided)
		if len(held) != 2 || held[13].ID != 0 {
			t.Fatalf("held = %v, want claims 11 and 12", held)
		}
		got := held[11]
		if got.Kind != "RETRY" || got.JobID != 3 || got.FailRetryCount != 2 || deref(got.ExecutorParam) != "p1" ||
			deref(got.ShardingParam) != "1/3" || !got.DecidedAt.Equal(now) || got.LogID != 0 || got.ExecutorAddress != "" {
			t.Errorf("retry row read back as %+v", got)
		}

		// Decided → logged (only from decided), → sending.
		mustNoErr(t, s.PendingMarkLogged(ctx, []PendingLog{{ID: held[11].ID, LogID: 501, ShardTotal: 1},
			{ID: held[12].ID, LogID: 502, ShardIndex: 0, ShardTotal: 1}}, now.Add(2*time.Minute)))
		logged := heldIn(t, s, []int64{11, 12}, PendingLogged)
		if logged[11].LogID != 501 || logged[12].LogID != 502 || !logged[12].LeaseUntil.Equal(now.Add(2*time.Minute)) {
			t.Fatalf("logged rows = %+v", logged)
		}
		if ok, err := s.PendingSend(ctx, 99, "http://nobody/", now); err != nil || ok {
			t.Fatalf("PendingSend with a claim nobody holds = %v, %v; want false", ok, err)
		}
		if ok, err := s.PendingSend(ctx, 12, "http://e1:9999/", now.Add(3*time.Minute)); err != nil || !ok {
			t.Fatalf("PendingSend = %v, %v", ok, err)
		}
		// A takeover from a read made before the holder marked it sending
		// (same claim, older stage and lease) must lose: the /run may be
		// under way, and a row taken over at "logged" is sent blind.
		if won, err := s.PendingClaim(ctx, logged[12], 20, "admin-x", now.Add(4*time.Minute)); err != nil || won {
			t.Fatalf("takeover from a read before the row was marked sending = %v, %v; want lost", won, err)
		}
		sending := heldIn(t, s, []int64{12}, PendingSending)
		if sending[12].ExecutorAddress != "http://e1:9999/" {
			t.Fatalf("sending row = %+v", sending[12])
		}

		// Taken over by another admin: the old claim can no longer move
		// it, and of two takeovers from the same read one wins.
		won, err := s.PendingClaim(ctx, sending[12], 21, "admin-b", now.Add(4*time.Minute))
		mustNoErr(t, err)
		again, err := s.PendingClaim(ctx, sending[12], 22, "admin-c", now.Add(4*time.Minute))
		mustNoErr(t, err)
		if !won || again {
			t.Fatalf("two takeovers from one read: %v, %v; want exactly the first", won, again)
		}
		if ok, _ := s.PendingSend(ctx, 12, "http://e2/", now); ok {
			t.Fatal("the old claim still moved the row after the takeover")
		}
		if ok, err := s.PendingRelease(ctx, 12); err != nil || ok {
			t.Fatalf("release by the old claim = %v, %v", ok, err)
		}
		if ok, err := s.PendingRelease(ctx, 21); err != nil || !ok {
			t.Fatalf("release by the new claim = %v, %v", ok, err)
		}

		// Expired rows, longest expired first; delete by id.
		late := pendingRow(200, 1, 31, now.Add(-time.Second))
		later := pendingRow(200, 2, 32, now.Add(-time.Hour))
		mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{late, later}))
		exp, err := s.PendingExpired(ctx, now, 10)
		mustNoErr(t, err)
		if len(exp) != 2 || exp[0].Claim != 32 || exp[1].Claim != 31 {
			t.Fatalf("expired = %+v, want claims 32, 31", exp)
		}
		mustNoErr(t, s.PendingDelete(ctx, []int64{exp[0].ID, exp[1].ID, logged[11].ID}))
		if n, err := s.PendingCount(ctx); err != nil || n != 0 {
			t.Fatalf("PendingCount after deleting all = %d, %v", n, err)
		}
	})
}

func heldIn(t *testing.T, s *Store, claims []int64, stages ...int) map[int64]PendingTrigger {
	t.Helper()
	var out map[int64]PendingTrigger
	err := s.WithTx(context.Background(), func(tx *Store) error {
		var err error
		out, err = tx.PendingHeld(context.Background(), claims, stages...)
		return err
	})
	mustNoErr(t, err)
	return out
}

// TestPendingMarkLoggedMany moves more rows than one batched statement
// holds and leaves rows no longer at PendingDecided alone.
func TestPendingMarkLoggedMany(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.UnixMilli(1_700_000_000_000)
		const n = 250
		rows := make([]PendingTrigger, n)
		claims := make([]int64, n)
		for i := range rows {
			claims[i] = int64(1000 + i)
			rows[i] = pendingRow(int64(i), 0, claims[i], now)
		}
		mustNoErr(t, s.PendingInsert(ctx, rows))
		held := heldIn(t, s, claims, PendingDecided)
		if ok, err := s.PendingSend(ctx, claims[0], "x", now); err != nil || ok {
			t.Fatalf("PendingSend on a decided row = %v, %v; want refused", ok, err)
		}
		var logs []PendingLog
		for i, c := range claims {
			logs = append(logs, PendingLog{ID: held[c].ID, LogID: int64(5000 + i), ShardIndex: i % 3, ShardTotal: 3})
		}
		mustNoErr(t, s.PendingMarkLogged(ctx, logs, now.Add(time.Hour)))
		logged := heldIn(t, s, claims, PendingLogged)
		if len(logged) != n {
			t.Fatalf("%d rows logged, want %d", len(logged), n)
		}
		for i, c := range claims {
			if p := logged[c]; p.LogID != int64(5000+i) || p.ShardIndex != i%3 || p.ShardTotal != 3 || !p.LeaseUntil.Equal(now.Add(time.Hour)) {
				t.Fatalf("row %d = %+v", i, p)
			}
		}
		// A second move finds nothing at PendingDecided and changes nothing.
		for i := range logs {
			logs[i].LogID = 1
		}
		mustNoErr(t, s.PendingMarkLogged(ctx, logs, now))
		if p := heldIn(t, s, claims[:1], PendingLogged)[claims[0]]; p.LogID != 5000 {
			t.Fatalf("a logged row was moved again: %+v", p)
		}
	})
}

// TestPendingClaimRace: admins taking the same expired rows over at once
// (one connection each) — exactly one wins each row, every round.
func TestPendingClaimRace(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.UnixMilli(1_700_000_000_000)
		const rounds, claimers = 30, 6
		var claim atomic.Int64
		claim.Store(1)
		for r := range rounds {
			mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{pendingRow(int64(r), 0, claim.Add(1), now.Add(-time.Second))}))
			exp, err := s.PendingExpired(ctx, now, 10)
			mustNoErr(t, err)
			if len(exp) != 1 {
				t.Fatalf("round %d: %d expired rows, want 1", r, len(exp))
			}
			var wins atomic.Int32
			var wg sync.WaitGroup
			start := make(chan struct{})
			for range claimers {
				wg.Go(func() {
					<-start
					won, err := s.PendingClaim(ctx, exp[0], claim.Add(1), "x", now.Add(time.Hour))
					if err != nil && !IsConflict(err) {
						t.Errorf("claim: %v", err)
					}
					if won {
						wins.Add(1)
					}
				})
			}
			close(start)
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("round %d: %d claimers won the same row, want 1", r, wins.Load())
			}
			mustNoErr(t, s.PendingDelete(ctx, []int64{exp[0].ID}))
		}
	})
}

// TestUpgradeLeavesPendingTable: `db upgrade` neither creates our table
// nor touches it or its rows (it holds triggers in flight of admins that
// may start again on the upgraded database).
func TestUpgradeLeavesPendingTable(t *testing.T) {
	for _, with := range []bool{true, false} {
		t.Run(map[bool]string{true: "present", false: "absent"}[with], func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				_, err := s.Prepare(ctx, PrepareOptions{SkipPendingTable: !with})
				mustNoErr(t, err)
				if with {
					mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{pendingRow(42, 0, 4242, time.UnixMilli(1_700_000_000_000))}))
				}
				plan, err := s.PlanUpgrade(ctx, Gen3)
				mustNoErr(t, err)
				res, err := s.ApplyUpgrade(ctx, plan, UpgradeOptions{Activity: quiet})
				mustNoErr(t, err)
				if res.Check.PendingCreated {
					t.Error("the upgrade created our table")
				}
				n, err := s.PendingCount(ctx)
				switch {
				case with && (err != nil || n != 1):
					t.Errorf("our table after the upgrade: %d rows, %v; want the one row", n, err)
				case !with && err == nil:
					t.Error("our table exists after upgrading a database without it")
				}
			})
		})
	}
}
