package thread

import (
	"context"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// The trigger_msg a settlement writes starts with this line, so that the
// console of either generation shows why the row changed.
const settledTitle = "The admin that triggered this run stopped before storing its trigger result"

// recognise makes the row an ordinary running row at address, which has
// its run's log: the callback, or the lost-job monitor, finishes it.
func (w *Settler) recognise(ctx context.Context, l schema.JobLog, address string) error {
	msg := settledTitle + ".<br>The executor " + address + " has the run's log, so its /run reached it: the run's " +
		"callback finishes this row (or the lost-job monitor, if that executor goes away)."
	l.ExecutorAddress, l.TriggerCode, l.TriggerMsg = &address, api.CodeSuccess, &msg
	_, err := w.store(ctx, l, SettleRecognised, nil)
	return err
}

// close closes the row as failed, for why: the fail monitor alarms it, and
// retries it unless dropRetry (a fire its misfire strategy drops is not
// sent in another form either).
func (w *Settler) close(ctx context.Context, l schema.JobLog, outcome, why string, dropRetry bool) error {
	msg := settledTitle + ", and " + why + "."
	lost := w.cfg.Texts.Text("joblog_lost_fail")
	now := w.now()
	l.TriggerCode, l.TriggerMsg = api.CodeFail, &msg
	l.HandleTime, l.HandleCode, l.HandleMsg = &now, api.CodeFail, &lost
	if dropRetry {
		l.ExecutorFailRetryCount = 0
	}
	_, err := w.store(ctx, l, outcome, nil)
	return err
}

// resend closes a row that was never sent and sends it once as a new
// trigger: a pending trigger decided in the transaction that closes the
// row, then submitted through the trigger door. When this admin stops
// before the submission, or the pool is full, the pending row's lease runs
// out and a sweeper submits it. The closed row gets no alarm: its trigger
// goes on in the new one.
func (w *Settler) resend(ctx context.Context, l schema.JobLog) error {
	req := trigger.Request{JobID: l.JobID, Type: trigger.TypeMisfire, FailRetryCount: l.ExecutorFailRetryCount,
		ExecutorParam: l.ExecutorParam, ShardingParam: deref(l.ExecutorShardingParam)}
	p := w.cfg.Durable.Decision(&req, l.ID, 0)
	msg := settledTitle + ", and its /run was never sent (no executor of its group has the run's log or holds a " +
		"run of the job): it is sent once again as a new trigger, whose log row names this one (" +
		strconv.FormatInt(l.ID, 10) + ")."
	now := w.now()
	l.TriggerCode, l.TriggerMsg = api.CodeFail, &msg
	l.HandleTime, l.HandleCode, l.HandleMsg, l.AlarmStatus = &now, api.CodeFail, &msg, AlarmNotNeeded
	if won, err := w.store(ctx, l, SettleResent, &p); err != nil || !won {
		return err
	}
	if err := w.cfg.Trigger.Submit(req); err != nil {
		w.log.Warn().Err(err).Int64("log_id", l.ID).Int("job_id", l.JobID).
			Msg("settled trigger not submitted now; its pending row is submitted again once its lease runs out")
	}
	return nil
}

// store writes the settlement of l with a compare-and-set, with the
// pending trigger p (when not nil) in the same transaction, and reports
// whether it wrote them: when another admin, the trigger or its callback
// finished the row first, nothing is written.
func (w *Settler) store(ctx context.Context, l schema.JobLog, outcome string, p *schema.PendingTrigger) (bool, error) {
	var won bool
	err := w.cfg.Store.WithTx(ctx, func(tx *schema.Store) error {
		var err error
		if won, err = tx.LogSettle(ctx, l); err != nil || !won || p == nil {
			return err
		}
		return tx.PendingInsert(ctx, []schema.PendingTrigger{*p})
	})
	if schema.IsConflict(err) { // another admin's settlement won (Galera certification)
		won, err = false, nil
	}
	if err != nil || !won {
		return false, err
	}
	w.log.Warn().Int64("log_id", l.ID).Int("job_id", l.JobID).Str("outcome", outcome).
		Str("executor_address", deref(l.ExecutorAddress)).
		Msg("settled a log row an admin left without a result")
	if w.cfg.Observer != nil {
		w.cfg.Observer.Settled(outcome)
	}
	return true, nil
}
