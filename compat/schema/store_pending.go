package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// The stages of a pending trigger: what its holder has done so far, and so
// what an admin taking it over must do (core/thread's Sweeper).
const (
	// PendingDecided: decided (the callback or retry transaction that
	// inserted the row committed); no log row yet.
	PendingDecided = 0
	// PendingLogged: its log row is written (LogID); no /run was sent.
	PendingLogged = 1
	// PendingSending: the executor it goes to is stored (ExecutorAddress)
	// and its /run may have been sent; the result is not stored.
	PendingSending = 2
)

// PendingTrigger is a row of PendingTable: one retry or child trigger
// decided and not yet seen through, and who holds it until when.
type PendingTrigger struct {
	ID int64
	// Claim is the holder's token: every change of the row is a
	// compare-and-set on it, and taking the row over replaces it, so that
	// of two admins only the one holding the current claim goes on.
	Claim int64
	// Owner names the admin holding the row (for operators; Claim decides).
	Owner string
	// LeaseUntil is when any admin may take the row over.
	LeaseUntil time.Time
	Stage      int
	// Kind is the trigger type: RETRY or PARENT (a child job).
	Kind  string
	JobID int
	// SourceLogID is the failed log of a retry, the parent's log of a
	// child; Seq the child's position among the parent's children (0 for
	// a retry); ShardIndex the row's shard when the trigger fans out
	// (SHARDING_BROADCAST), with ShardTotal shards (0 before the log rows
	// are written). The four are the decision's key: deciding it twice
	// stores one row.
	SourceLogID int64
	Seq         int
	ShardIndex  int
	ShardTotal  int
	// FailRetryCount, ExecutorParam and ShardingParam are the request's
	// (trigger.Request): -1 takes the job's retry count, nil the job's
	// parameter, nil no sharding override.
	FailRetryCount int
	ExecutorParam  *string
	ShardingParam  *string
	DecidedAt      time.Time
	// LogID is the trigger's log row from PendingLogged on (0 before).
	LogID int64
	// ExecutorAddress is where its /run goes, from PendingSending on.
	ExecutorAddress string
}

func (s *Store) scanPending(sc scanner) (PendingTrigger, error) {
	var p PendingTrigger
	var lease, decided int64
	var logID *int64
	var address *string
	err := sc.Scan(&p.ID, &p.Claim, &p.Owner, &lease, &p.Stage, &p.Kind, &p.SourceLogID, &p.Seq, &p.ShardIndex,
		&p.ShardTotal, &p.JobID, &p.FailRetryCount, &p.ExecutorParam, &p.ShardingParam, &decided, &logID, &address)
	p.LeaseUntil, p.DecidedAt = time.UnixMilli(lease), time.UnixMilli(decided)
	if logID != nil {
		p.LogID = *logID
	}
	if address != nil {
		p.ExecutorAddress = *address
	}
	return p, err
}

// pendingValues are a row's values in the order of pendingColumns without
// the id.
func pendingValues(p PendingTrigger) []any {
	var logID, address any
	if p.LogID != 0 {
		logID = p.LogID
	}
	if p.ExecutorAddress != "" {
		address = p.ExecutorAddress
	}
	return []any{p.Claim, p.Owner, p.LeaseUntil.UnixMilli(), p.Stage, p.Kind, p.SourceLogID, p.Seq, p.ShardIndex,
		p.ShardTotal, p.JobID, p.FailRetryCount, p.ExecutorParam, p.ShardingParam, p.DecidedAt.UnixMilli(), logID, address}
}

// skipDecided is the suffix that makes an insert skip a row whose
// decision (kind, source log, seq, shard) is stored already. On MySQL the
// upsert skips a row that repeats any unique key, the claim too; a claim
// is a random 63-bit number, so a repeat is a one in 10^14 event per
// million rows held.
func (s *Store) skipDecided() string {
	if s.d.backend() == MySQL {
		return "ON DUPLICATE KEY UPDATE id = id"
	}
	return "ON CONFLICT (kind, source_log_id, seq, shard_index) DO NOTHING"
}

// PendingInsert stores decided triggers (or the further shards of one,
// PendingLogged) in one statement per 500 rows; a row whose decision is
// stored already is skipped. Call it in the transaction that decides them,
// so that a trigger is pending exactly when its decision is stored.
func (s *Store) PendingInsert(ctx context.Context, rows []PendingTrigger) error {
	for start := 0; start < len(rows); start += batchRows {
		b := s.sb.Insert(PendingTable).Columns(pendingColumns[1:]...)
		for _, p := range rows[start:min(start+batchRows, len(rows))] {
			b = b.Values(pendingValues(p)...)
		}
		if _, err := s.exec(ctx, b.Suffix(s.skipDecided())); err != nil {
			return fmt.Errorf("store %d pending triggers: %w", len(rows), err)
		}
	}
	return nil
}

// PendingHeld returns the rows the given claims still hold in one of the
// given stages, by claim, locked until the transaction ends (FOR UPDATE
// where the backend has row locks): a claim absent from the map was taken
// over by another admin, or its row is gone.
func (s *Store) PendingHeld(ctx context.Context, claims []int64, stages ...int) (map[int64]PendingTrigger, error) {
	out := make(map[int64]PendingTrigger, len(claims))
	err := inChunks(claims, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select(pendingColumns...).From(PendingTable).
			Where(sq.Eq{"claim": chunk, "stage": stages}).OrderBy("id").Suffix(s.d.lockSuffix()), s.scanPending)
		for _, p := range rows {
			out[p.Claim] = p
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %d pending triggers: %w", len(claims), err)
	}
	return out, nil
}

// PendingLog is a held row's log row: what PendingMarkLogged writes.
type PendingLog struct {
	ID         int64
	LogID      int64
	ShardIndex int
	ShardTotal int
}

// PendingMarkLogged moves held rows (PendingHeld) from PendingDecided to
// PendingLogged with their log rows, held until leaseUntil: one statement
// per 100 rows on MySQL and PostgreSQL, one prepared statement per row on
// SQLite (as the log updates).
func (s *Store) PendingMarkLogged(ctx context.Context, logs []PendingLog, leaseUntil time.Time) error {
	if len(logs) == 0 {
		return nil
	}
	lease := leaseUntil.UnixMilli()
	if s.d.backend() == SQLite || len(logs) == 1 {
		for _, l := range logs {
			_, err := s.exec(ctx, s.sb.Update(PendingTable).Set("stage", PendingLogged).Set("lease_until", lease).
				Set("log_id", l.LogID).Set("shard_index", l.ShardIndex).Set("shard_total", l.ShardTotal).
				Where(sq.Eq{"id": l.ID, "stage": PendingDecided}))
			if err != nil {
				return fmt.Errorf("mark pending trigger %d logged: %w", l.ID, err)
			}
		}
		return nil
	}
	for start := 0; start < len(logs); start += caseRows {
		chunk := logs[start:min(start+caseRows, len(logs))]
		ids := make([]any, len(chunk))
		values := make([][]any, len(chunk))
		for i, l := range chunk {
			ids[i] = l.ID
			values[i] = []any{PendingLogged, lease, l.LogID, l.ShardIndex, l.ShardTotal}
		}
		b := caseBatch{table: PendingTable, ids: ids, set: []string{"stage", "lease_until", "log_id", "shard_index", "shard_total"},
			values: values, where: fmt.Sprintf(" AND stage = %d", PendingDecided), types: pendingTypes}
		if _, err := s.exec(ctx, b.build(s.d)); err != nil {
			return fmt.Errorf("mark %d pending triggers logged: %w", len(logs), err)
		}
	}
	return nil
}

// PendingSend stores where a held row's /run goes, just before it is
// sent (PendingLogged or PendingSending → PendingSending), held until
// leaseUntil. It reports whether the claim still held the row: when it
// did not, the /run must not be sent.
func (s *Store) PendingSend(ctx context.Context, claim int64, address string, leaseUntil time.Time) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update(PendingTable).Set("stage", PendingSending).Set("executor_address", address).
		Set("lease_until", leaseUntil.UnixMilli()).
		Where(sq.Eq{"claim": claim, "stage": []int{PendingLogged, PendingSending}}))
	if err != nil {
		return false, fmt.Errorf("mark pending trigger sending: %w", err)
	}
	return n > 0, nil
}

// PendingDelete deletes rows by id: those a transaction holds (PendingHeld)
// once their triggers' results are stored in it.
func (s *Store) PendingDelete(ctx context.Context, ids []int64) error {
	err := inChunks(ids, func(chunk []int64) error {
		_, err := s.exec(ctx, s.sb.Delete(PendingTable).Where(sq.Eq{"id": chunk}))
		return err
	})
	if err != nil {
		return fmt.Errorf("delete %d pending triggers: %w", len(ids), err)
	}
	return nil
}

// PendingRelease deletes the row a claim holds, when there is nothing left
// to do for it (its result is stored, its log row or job is gone). It
// reports whether the claim still held it.
func (s *Store) PendingRelease(ctx context.Context, claim int64) (bool, error) {
	n, err := s.exec(ctx, s.sb.Delete(PendingTable).Where(sq.Eq{"claim": claim}))
	if err != nil {
		return false, fmt.Errorf("release pending trigger: %w", err)
	}
	return n > 0, nil
}

// PendingExpired lists up to size rows whose lease ran out before now,
// the longest expired first.
func (s *Store) PendingExpired(ctx context.Context, now time.Time, size int) ([]PendingTrigger, error) {
	rows, err := selectAll(ctx, s, page(s.sb.Select(pendingColumns...).From(PendingTable).
		Where(sq.Lt{"lease_until": now.UnixMilli()}).OrderBy("lease_until", "id"), 0, size), s.scanPending)
	if err != nil {
		return nil, fmt.Errorf("find expired pending triggers: %w", err)
	}
	return rows, nil
}

// PendingClaim takes a row over: a compare-and-set from the row as it was
// read (p's claim, stage and lease) to claim, held by owner until
// leaseUntil. It reports whether this caller won; of admins taking the
// same row over at once one does (on Galera the others' commits fail
// certification and report the conflict as an error). The stage and lease
// are compared too because the holder moves a row on without a new claim:
// a row read expired at "logged" whose holder marked it "sending" (and
// sent its /run) in the meantime must not be taken over as never sent.
func (s *Store) PendingClaim(ctx context.Context, p PendingTrigger, claim int64, owner string, leaseUntil time.Time) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update(PendingTable).Set("claim", claim).Set("owner", owner).
		Set("lease_until", leaseUntil.UnixMilli()).
		Where(sq.Eq{"id": p.ID, "claim": p.Claim, "stage": p.Stage, "lease_until": p.LeaseUntil.UnixMilli()}))
	if err != nil {
		return false, fmt.Errorf("claim pending trigger %d: %w", p.ID, err)
	}
	return n > 0, nil
}

// PendingCount is the number of rows, for the metrics.
func (s *Store) PendingCount(ctx context.Context) (int, error) {
	n, err := s.count(ctx, s.sb.Select("count(1)").From(PendingTable))
	if err != nil {
		return 0, fmt.Errorf("count pending triggers: %w", err)
	}
	return n, nil
}
