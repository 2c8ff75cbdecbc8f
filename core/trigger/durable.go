package trigger

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Durable makes the retries and child triggers this admin decides survive
// its crash (docs/differences.md): each is stored as a pending row
// (schema.PendingTable) in the transaction that decides it, and the flow
// moves the row along as it goes — decided, log row written, /run being
// sent — and deletes it with the result. Every move is a compare-and-set on
// the row's claim, which Request.Pending carries: a row whose lease ran out
// is taken over by any admin's sweeper (core/thread), which replaces the
// claim, so the admin that held it before can no longer write its log row,
// send its /run or store its result. A nil *Durable is off.
type Durable struct {
	// Owner names this admin in the rows it holds (for operators).
	Owner string
	// Lease is how long a decided or prepared trigger stays this admin's
	// before any admin may take it over.
	Lease time.Duration
	// SendLease is how long a row stays this admin's once its /run may be
	// under way. It must exceed the executor client's limit on a whole
	// call, so that whoever takes the row over finds that /run ended.
	SendLease time.Duration
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Hook, when set, sees the pending rows that get their log rows
	// (PendingHook).
	Hook PendingHook
}

// PendingHook sees durable triggers get their log rows, inside the
// transaction that writes them (rows at PendingLogged, with LogID and
// shard set; a broadcast's further shards included): core/workflow
// records there which node of which run each log row is.
type PendingHook interface {
	PendingLogged(ctx context.Context, tx *schema.Store, rows []schema.PendingTrigger) error
}

func (d *Durable) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}

// NewClaim returns a fresh claim: a random positive 63-bit number.
func NewClaim() int64 { return rand.Int64N(math.MaxInt64) + 1 }

// Decision returns the pending row of a retry (req.Type TypeRetry, source
// the failed log) or child trigger (TypeParent, source the parent's log,
// seq its position among the parent's children) decided now, held by this
// admin for the lease, and sets req.Pending to its claim.
func (d *Durable) Decision(req *Request, source int64, seq int) schema.PendingTrigger {
	now := d.now()
	req.Pending = NewClaim()
	p := schema.PendingTrigger{Claim: req.Pending, Owner: d.Owner, LeaseUntil: now.Add(d.Lease),
		Stage: schema.PendingDecided, Kind: string(req.Type), JobID: req.JobID, SourceLogID: source, Seq: seq,
		FailRetryCount: req.FailRetryCount, ExecutorParam: req.ExecutorParam, DecidedAt: now}
	if req.ShardingParam != "" {
		p.ShardingParam = &req.ShardingParam
	}
	return p
}

// Request is the trigger a pending row stands for, to be sent under claim.
func Pending(p schema.PendingTrigger, claim int64) Request {
	r := Request{JobID: p.JobID, Type: Type(p.Kind), FailRetryCount: p.FailRetryCount, ExecutorParam: p.ExecutorParam,
		Pending: claim}
	if p.ShardingParam != nil {
		r.ShardingParam = *p.ShardingParam
	}
	return r
}

// leases is the flow's side of durable triggers: the leases and clock, and
// the group commit that lets the senders' executor marks share commits
// (each is one small UPDATE; alone, each would pay a log flush).
type leases struct {
	*Durable
	sends *schema.GroupCommit
}

// newLeases takes d, or the defaults when d is nil.
func newLeases(d *Durable, s *schema.Store) *leases {
	if d == nil {
		d = &Durable{Lease: DefaultLease, SendLease: DefaultSendLease}
	}
	l := &leases{Durable: d}
	if s != nil {
		l.sends = s.NewGroupCommit(64)
	}
	return l
}

// recovery is how a firing of a row another admin left behind is sent
// (see Resume): answer, when set, is taken as the executor's answer
// without sending; otherwise the /run goes out again with the row's log id
// and an executor's refusal of it as a repeat means it holds the first.
type recovery struct {
	answer *api.ReturnT[string]
}

// saveLogs writes the log rows of a prepared batch. A batch without
// durable triggers is written as before. With durable triggers it is one
// transaction: only triggers whose claims still hold their rows at
// PendingDecided keep their log rows (the others were taken over), their
// rows move to PendingLogged with their log ids, a trigger that fans out
// (SHARDING_BROADCAST) gets a pending row of its own for each further
// shard, and the rows of gone (durable triggers whose jobs no longer
// exist) are deleted. It returns the firings kept, their log ids in order.
func (f *Flow) saveLogs(ctx context.Context, fired []*firing, rows []schema.JobLog, gone []int64) ([]*firing, []int64, error) {
	// Both ways write in one transaction, rolled back whole when it loses
	// to a concurrent writer (MariaDB's deadlock on the pending rows under
	// load: bench-workflow saw 41 child and 286 node triggers so lost, sent
	// by a sweeper 30 s later), so a lost one is redone at once.
	var kept []*firing
	var ids []int64
	err := schema.RetryConflicts(ctx, 3, func() (err error) {
		kept, ids, err = f.saveLogsOnce(ctx, fired, rows, gone)
		return err
	}, nil)
	return kept, ids, err
}

func (f *Flow) saveLogsOnce(ctx context.Context, fired []*firing, rows []schema.JobLog, gone []int64) ([]*firing, []int64, error) {
	var claims []int64
	for i, fr := range fired {
		if fr.plan.pending != 0 && (i == 0 || fired[i-1].plan != fr.plan) {
			claims = append(claims, fr.plan.pending)
		}
	}
	if len(claims) == 0 && len(gone) == 0 {
		ids, err := f.store.LogSaveMany(ctx, rows)
		return fired, ids, err
	}
	var kept []*firing
	var ids []int64
	dropped := 0
	err := f.store.WithTx(ctx, func(tx *schema.Store) error {
		dropped = 0
		held, err := tx.PendingHeld(ctx, append(claims, gone...), schema.PendingDecided)
		if err != nil {
			return err
		}
		kept, ids = kept[:0], ids[:0]
		keptRows := make([]schema.JobLog, 0, len(rows))
		for i, fr := range fired {
			if c := fr.plan.pending; c == 0 || held[c].ID != 0 {
				kept = append(kept, fr)
				keptRows = append(keptRows, rows[i])
			}
		}
		if n := len(fired) - len(kept); n > 0 {
			dropped = n
		}
		if ids, err = tx.LogSaveMany(ctx, keptRows); err != nil {
			return err
		}
		return f.pendingLogged(ctx, tx, kept, ids, held, gone)
	})
	if err != nil {
		return nil, nil, err
	}
	if dropped > 0 {
		f.log.Info().Int("count", dropped).Int("held", len(claims)).
			Msg("durable triggers not prepared: their pending rows were taken over by another admin, which sends them")
	}
	return kept, ids, nil
}

// pendingLogged moves the held rows of the kept firings to PendingLogged,
// inserts the rows of further shards, and deletes the rows of gone.
func (f *Flow) pendingLogged(ctx context.Context, tx *schema.Store, kept []*firing, ids []int64,
	held map[int64]schema.PendingTrigger, gone []int64) error {
	lease := f.leases.now().Add(f.leases.Lease)
	var logged []schema.PendingLog
	var shards []schema.PendingTrigger
	for i, fr := range kept {
		c := fr.plan.pending
		if c == 0 {
			continue
		}
		if i == 0 || kept[i-1].plan != fr.plan { // the decided row itself
			fr.pending = c
			logged = append(logged, schema.PendingLog{ID: held[c].ID, LogID: ids[i], ShardIndex: fr.shard.index, ShardTotal: fr.shard.total})
			continue
		}
		p := held[c] // a further shard: a row of its own
		p.Claim, p.Owner, p.LeaseUntil, p.Stage = NewClaim(), f.leases.Owner, lease, schema.PendingLogged
		p.LogID, p.ShardIndex, p.ShardTotal = ids[i], fr.shard.index, fr.shard.total
		fr.pending = p.Claim
		shards = append(shards, p)
	}
	if err := tx.PendingMarkLogged(ctx, logged, lease); err != nil {
		return err
	}
	if err := tx.PendingInsert(ctx, shards); err != nil {
		return err
	}
	if err := f.hookLogged(ctx, tx, held, logged, shards); err != nil {
		return err
	}
	var del []int64
	for _, c := range gone {
		if p, ok := held[c]; ok {
			del = append(del, p.ID)
		}
	}
	return tx.PendingDelete(ctx, del)
}

// hookLogged shows the rows that got their log rows to the hook, if any.
func (f *Flow) hookLogged(ctx context.Context, tx *schema.Store, held map[int64]schema.PendingTrigger,
	logged []schema.PendingLog, shards []schema.PendingTrigger) error {
	if f.leases.Hook == nil || len(logged)+len(shards) == 0 {
		return nil
	}
	byID := make(map[int64]schema.PendingTrigger, len(held))
	for _, p := range held {
		byID[p.ID] = p
	}
	rows := make([]schema.PendingTrigger, 0, len(logged)+len(shards))
	for _, l := range logged {
		p := byID[l.ID]
		p.Stage, p.LogID, p.ShardIndex, p.ShardTotal = schema.PendingLogged, l.LogID, l.ShardIndex, l.ShardTotal
		rows = append(rows, p)
	}
	return f.leases.Hook.PendingLogged(ctx, tx, append(rows, shards...))
}

// send sends one row's /run to address. For a durable trigger the address
// is stored first (PendingSend) — a row not at PendingSending was never
// sent — and when its claim no longer holds the row, or the store fails,
// nothing is sent: ok is false and the row is left to whoever holds it or
// takes it over.
func (f *Flow) send(ctx context.Context, fr *firing, address string, param api.TriggerParam) (r api.ReturnT[string], ok bool) {
	if fr.pending != 0 {
		var held bool
		until := f.leases.now().Add(f.leases.SendLease)
		err := f.leases.sends.Do(ctx, func(ctx context.Context, tx *schema.Store) error {
			var err error
			held, err = tx.PendingSend(ctx, fr.pending, address, until)
			return err
		})
		if err != nil || !held {
			ev := f.log.Warn().Err(err)
			if err == nil {
				ev = f.log.Info()
			}
			ev.Int("job_id", fr.plan.job.ID).Int64("log_id", fr.logID).
				Msg("durable trigger not sent: its pending row was taken over or could not be marked; it is sent by whoever holds it")
			return r, false
		}
	}
	if fr.rec != nil && fr.rec.answer != nil {
		return *fr.rec.answer, true
	}
	r = f.client.Run(ctx, address, param)
	if fr.rec != nil && r.Code != api.CodeSuccess && isRepeat(r) {
		// The executor holds this log id in its queue: the first /run of
		// the admin that stopped reached it.
		msg := "the executor already holds this run (sent before the admin that sent it stopped): " + deref(r.Msg)
		r = api.ReturnT[string]{Code: api.CodeSuccess, Msg: &msg}
	}
	return r, true
}

// isRepeat tells the Java executor's refusal of a log id already in its
// queue: "repeate trigger job, logId:…" (2.x) or "repeat trigger job,
// logId:…" (3.x).
func isRepeat(r api.ReturnT[string]) bool {
	if r.Msg == nil {
		return false
	}
	m := *r.Msg
	for _, p := range []string{"repeate trigger job", "repeat trigger job"} {
		if len(m) >= len(p) && m[:len(p)] == p {
			return true
		}
	}
	return false
}

// withoutAbandoned drops the outcomes of rows that were not sent (send),
// copying only when there is one.
func withoutAbandoned(outs []outcome) []outcome {
	for i, o := range outs {
		if o.abandoned {
			kept := append([]outcome(nil), outs[:i]...)
			for _, o := range outs[i+1:] {
				if !o.abandoned {
					kept = append(kept, o)
				}
			}
			return kept
		}
	}
	return outs
}

// storeResults writes the results of fired rows. Rows of durable triggers
// are written only while their claims still hold them (at PendingLogged or
// PendingSending), in one transaction with the deletion of their pending
// rows, so a result is stored exactly when its pending row is gone. It
// returns the outcomes whose results it wrote.
func (f *Flow) storeResults(ctx context.Context, outs []outcome, rows []schema.JobLog) ([]outcome, error) {
	var claims []int64
	for _, o := range outs {
		if o.pending != 0 {
			claims = append(claims, o.pending)
		}
	}
	if len(claims) == 0 {
		return outs, f.store.LogTriggerResultMany(ctx, rows)
	}
	var kept []outcome
	// A deadlock here is real: a callback's transaction (a workflow node's
	// result, a child decided) locks the same log and pending rows in its
	// own order. The loser changed nothing, and the transaction is
	// idempotent (it re-reads which claims still hold), so it is redone a
	// few times before the rows are left to the sweeper.
	err := schema.RetryConflicts(ctx, resultConflictTries, func() error {
		return f.storeResultsTx(ctx, outs, rows, claims, &kept)
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("store %d trigger results: %w", len(rows), err)
	}
	if n := len(outs) - len(kept); n > 0 {
		f.log.Info().Int("count", n).Msg("trigger results not stored: their pending rows were taken over by another admin, which stores them")
	}
	return kept, nil
}

// resultConflictTries bounds storeResults' attempts when its transaction
// loses to a concurrent writer of the same rows.
const resultConflictTries = 4

// storeResultsTx is one attempt of storeResults' transaction; kept gets
// the outcomes whose results it wrote.
func (f *Flow) storeResultsTx(ctx context.Context, outs []outcome, rows []schema.JobLog, claims []int64, kept *[]outcome) error {
	return f.store.WithTx(ctx, func(tx *schema.Store) error {
		held, err := tx.PendingHeld(ctx, claims, schema.PendingLogged, schema.PendingSending)
		if err != nil {
			return err
		}
		*kept = (*kept)[:0]
		keptRows := make([]schema.JobLog, 0, len(rows))
		ids := make([]int64, 0, len(held))
		for i, o := range outs {
			if o.pending == 0 {
				*kept, keptRows = append(*kept, o), append(keptRows, rows[i])
			} else if p, ok := held[o.pending]; ok {
				*kept, keptRows, ids = append(*kept, o), append(keptRows, rows[i]), append(ids, p.ID)
			}
		}
		if err := tx.LogTriggerResultMany(ctx, keptRows); err != nil {
			return err
		}
		return tx.PendingDelete(ctx, ids)
	})
}

// The default leases of durable triggers: a decided or prepared trigger
// is taken over 30 s after its holder last moved it; one whose /run may be
// under way 30 s after the executor client's default call limit.
const (
	DefaultLease     = 30 * time.Second
	DefaultSendLease = DefaultLease + api.DefaultCallLimit
)
