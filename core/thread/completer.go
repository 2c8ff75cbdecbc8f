package thread

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// MaxHandleMsg is the Java cap on handle_msg, in UTF-16 code units.
const MaxHandleMsg = 15000

// Completer is XxlJobCompleter plus the callback worker of JobCompleteHelper:
// it records execution results and fires child jobs (executor-protocol.md
// §2.5, scheduler.md §7).
//
// Unlike Java, which acknowledges a callback before processing it and loses
// what is queued if it dies, Callback stores every item before it returns,
// so the handler only answers success for durable results; on an error the
// executor keeps the batch and retries, and items already finished are then
// skipped by the handle_code guard. Concurrent POSTs share commits through
// the store's group commit.
type Completer struct {
	store   *schema.Store
	gc      *schema.GroupCommit
	texts   Texts
	trigger trigger.Submitter
	now     func() time.Time
	log     zerolog.Logger
	unknown *loglimit.Repeats // callbacks for logs that do not exist
	obs     CallbackObserver
	rule    ChildRule
	durable *trigger.Durable
	hook    FinishHook
}

var _ api.Callbacks = (*Completer)(nil)

// CompleterConfig wires a Completer.
type CompleterConfig struct {
	Store   *schema.Store
	Texts   Texts
	Trigger trigger.Submitter // child jobs fire through the trigger door
	Now     func() time.Time  // nil: time.Now
	Log     zerolog.Logger
	// Observer sees the items of every POST; nil means none.
	Observer CallbackObserver
	// Children is how child job ids are read: ChildRule242 (the zero
	// value) or ChildRule342, the admin that owns the database.
	Children ChildRule
	// Durable, when set, stores each child trigger as a pending row in the
	// transaction that stores its parent's result (trigger.Durable), so it
	// is sent even if this admin stops before it did.
	Durable *trigger.Durable
	// Hook, when set, sees every finished log in the transaction that
	// stores its result (FinishHook).
	Hook FinishHook
}

// NewCompleter creates the completer.
func NewCompleter(cfg CompleterConfig) *Completer {
	return &Completer{store: cfg.Store, gc: cfg.Store.NewGroupCommit(64), texts: cfg.Texts, trigger: cfg.Trigger,
		now: orNow(cfg.Now), log: cfg.Log.With().Str("component", "completer").Logger(), unknown: loglimit.NewRepeats(0, nil), obs: cfg.Observer,
		rule: cfg.Children, durable: cfg.Durable, hook: cfg.Hook}
}

// Callback processes one /api/callback POST, item by item in order, as one
// unit of work in one transaction: one statement reads and locks every log
// of the POST, jobs are loaded once per POST, and one statement per 500
// items stores the results (a statement per item cost MariaDB about as
// much as the rest of the POST). The locks make "this POST finished the
// log" exact, so children fire once, after the commit.
func (c *Completer) Callback(ctx context.Context, items []api.HandleCallbackParam) error {
	pass, err := c.callbackPass(ctx, items)
	if err != nil {
		c.count(CallbackFailed, len(items))
		return err
	}
	var recheck error
	if len(pass.unknown) > 0 {
		pass, recheck = c.recheckUnknown(ctx, items, pass)
	}
	c.count(CallbackFinished, pass.finished)
	c.count(CallbackRepeated, len(items)-pass.finished-len(pass.unknown))
	if recheck == nil {
		c.count(CallbackUnknown, len(pass.unknown))
		c.warnUnknown(pass.unknown, len(items))
	} else {
		// What the first pass stored stays stored (its children fire
		// below); the executor re-sends the POST for the rest.
		c.count(CallbackFailed, len(pass.unknown))
	}
	c.fire(pass.children)
	c.submitHooked(pass.hooked)
	return recheck
}

// callbackResult is what one pass over a POST's items decided.
type callbackResult struct {
	children []childFire
	unknown  []int64
	finished int
	hooked   []trigger.Request
}

// callbackPass stores the results of items in one unit of the group
// commit; logs it cannot find are left in unknown.
func (c *Completer) callbackPass(ctx context.Context, items []api.HandleCallbackParam) (callbackResult, error) {
	ids := make([]int64, len(items))
	for i, item := range items {
		ids[i] = item.LogID
	}
	var r callbackResult
	err := c.gc.Do(ctx, func(ctx context.Context, gtx *schema.Store) error {
		// A unit run alone by the group commit autocommits; this one must
		// hold its locks until it has written.
		return gtx.WithTx(ctx, func(tx *schema.Store) error {
			r = callbackResult{} // the unit may run twice (see GroupCommit)
			logs, err := tx.LogLoadManyForUpdate(ctx, ids)
			if err != nil {
				return err
			}
			jobs := jobCache{}
			var rows []schema.JobLog
			for _, item := range items {
				if _, ok := logs[item.LogID]; !ok {
					r.unknown = append(r.unknown, item.LogID)
					continue
				}
				row, fires, won, err := c.callbackItem(ctx, tx, logs, jobs, item)
				if err != nil {
					return err
				}
				if won {
					rows = append(rows, row)
					r.children = append(r.children, fires...)
				}
			}
			r.finished = len(rows)
			// The hook goes first: on MariaDB the results' UPDATE holds a
			// gap of the log table's handle_code index, which a trigger
			// flow inserting a log row waits for while it holds the
			// pending rows the hook's inserts would wait for.
			if r.hooked, err = c.hooked(ctx, tx, rows); err != nil {
				return err
			}
			if _, err = tx.LogFinishMany(ctx, rows); err != nil {
				return err
			}
			return c.decide(ctx, tx, r.children)
		})
	})
	return r, err
}

// recheckUnknown gives the logs a pass could not find a second look on a
// Galera node. There a callback can outrun replication: the log row was
// committed through another node before the /run was sent, but this node
// has not applied it yet, and "unknown" would drop the result for good
// (the executor takes the answer as stored). A causal read waits until
// this node has applied everything the cluster committed before it, which
// covers that row; the items it finds get one more pass. What the causal
// read does not find was never committed or has been deleted (log
// cleaning): unknown, as on every other database. Other databases and the
// common path (no unknown ids) pay nothing.
func (c *Completer) recheckUnknown(ctx context.Context, items []api.HandleCallbackParam, first callbackResult) (callbackResult, error) {
	if galera, err := c.store.Galera(ctx); err != nil || !galera {
		return first, err
	}
	found, err := c.store.LogIDsCausal(ctx, first.unknown)
	if err != nil || len(found) == 0 {
		return first, err // an error: the executor re-sends the POST
	}
	late := make(map[int64]bool, len(found))
	for _, id := range found {
		late[id] = true
	}
	var again []api.HandleCallbackParam
	for _, item := range items {
		if late[item.LogID] {
			again = append(again, item)
		}
	}
	second, err := c.callbackPass(ctx, again)
	if err != nil {
		return first, err
	}
	c.log.Info().Int("late_logs", len(found)).Ints64("log_ids", found[:min(len(found), 10)]).
		Msg("callback for logs not yet replicated to this Galera node, stored after a causal read")
	first.children = append(first.children, second.children...)
	first.hooked = append(first.hooked, second.hooked...)
	first.finished += second.finished
	first.unknown = slices.DeleteFunc(first.unknown, func(id int64) bool { return late[id] })
	return first, nil
}

// hooked runs the hook, if any, on the logs finished in tx.
func (c *Completer) hooked(ctx context.Context, tx *schema.Store, rows []schema.JobLog) ([]trigger.Request, error) {
	if c.hook == nil || len(rows) == 0 {
		return nil, nil
	}
	return c.hook.Finished(ctx, tx, rows)
}

// submitHooked queues the hook's triggers after the commit; their pending
// rows are stored, so one the door refuses is sent by a sweeper.
func (c *Completer) submitHooked(reqs []trigger.Request) {
	for _, r := range reqs {
		if err := c.trigger.Submit(r); err != nil {
			c.log.Warn().Err(err).Int("job_id", r.JobID).Str("pending", "a sweeper submits it again once its lease runs out").
				Msg("trigger decided by the finish hook not queued")
		}
	}
}

// warnUnknown reports the callbacks for logs that do not exist in one line
// per POST, at most once a minute: a POST of 100,000 unknown ids made 13 MB
// of warnings when each had its own line.
func (c *Completer) warnUnknown(unknown []int64, items int) {
	if len(unknown) == 0 {
		return
	}
	ok, suppressed := c.unknown.Allow("unknown-log")
	if !ok {
		return
	}
	c.log.Warn().Int("unknown_count", len(unknown)).Int("items", items).
		Ints64("log_ids", unknown[:min(len(unknown), 10)]).Int("suppressed_posts", suppressed).
		Msg("callback for unknown logs, skipped (first ids shown; repeats summarised once a minute)")
}

// count reports n items with result to the observer, if any.
func (c *Completer) count(result string, n int) {
	if c.obs != nil && n > 0 {
		c.obs.CallbackItems(result, n)
	}
}

// callbackItem computes one item's result for a log read under lock: the
// finished row and its children, or won false when the log already has a
// result (an earlier delivery, or an earlier item of this POST).
func (c *Completer) callbackItem(ctx context.Context, tx *schema.Store, logs map[int64]schema.JobLog, jobs jobCache, item api.HandleCallbackParam) (row schema.JobLog, fires []childFire, won bool, err error) {
	l := logs[item.LogID]
	if l.HandleCode > 0 {
		c.log.Debug().Int64("log_id", item.LogID).Msg("repeated callback, skipped")
		return l, nil, false, nil
	}
	msg := mergeHandleMsg(l.HandleMsg, item.HandleMsg)
	now := c.now()
	l.HandleTime, l.HandleCode, l.HandleMsg = &now, item.HandleCode, &msg
	row, children, err := c.result(ctx, tx, jobs, l)
	if err != nil {
		return l, nil, false, err
	}
	logs[l.ID] = row // a repeat of this log later in the same POST is skipped
	for i, id := range children {
		fires = append(fires, childFire{parentLog: l.ID, jobID: id, seq: i})
	}
	return row, fires, true, nil
}

// jobCache holds the jobs loaded while finishing one POST (nil: not found).
type jobCache map[int]*schema.JobInfo

func (j jobCache) load(ctx context.Context, s *schema.Store, id int) (*schema.JobInfo, error) {
	if job, ok := j[id]; ok {
		return job, nil
	}
	job, err := s.JobLoad(ctx, id)
	if errors.Is(err, schema.ErrNotFound) {
		j[id] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	j[id] = &job
	return &job, nil
}

// mergeHandleMsg appends the new message to the stored one with <br>, as
// Java does; two nulls give "".
func mergeHandleMsg(old, add *string) string {
	var b strings.Builder
	if old != nil {
		b.WriteString(*old)
		b.WriteString("<br>")
	}
	if add != nil {
		b.WriteString(*add)
	}
	return b.String()
}

// Finish is the shared "finish" step (callback, lost-job monitor, console
// kill): on success it appends the child-trigger text, caps handle_msg and
// stores the result if the log is still open; then it fires the children.
// It reports whether this call finished the log.
func (c *Completer) Finish(ctx context.Context, l schema.JobLog) (bool, error) {
	won, fires, hooked, err := c.finish(ctx, c.store, jobCache{}, l)
	if err != nil {
		return false, err
	}
	c.fire(fires)
	c.submitHooked(hooked)
	return won, nil
}

// Overwrite records a result that replaces whatever the log holds — the
// console's kill (console.md §6 logKill: handle code 500 and the kill
// message, even over a finished row, as Java's kill does). The message is
// capped like every handle_msg; a 500 fires no child jobs.
func (c *Completer) Overwrite(ctx context.Context, l schema.JobLog) error {
	if l.HandleMsg != nil {
		capped := truncateUTF16(*l.HandleMsg, MaxHandleMsg)
		l.HandleMsg = &capped
	}
	if l.HandleCode == 200 {
		return fmt.Errorf("overwrite log %d: only failure results may replace a result", l.ID)
	}
	return c.store.LogUpdateHandleInfo(ctx, l)
}

// childFire is a child job to queue once its parent's result is stored:
// the seq-th child of the parent's log, pending under claim when durable.
type childFire struct {
	parentLog int64
	jobID     int
	seq       int
	claim     int64
}

func (c *Completer) finish(ctx context.Context, s *schema.Store, jobs jobCache, l schema.JobLog) (bool, []childFire, []trigger.Request, error) {
	row, children, err := c.result(ctx, s, jobs, l)
	if err != nil {
		return false, nil, nil, err
	}
	fires := make([]childFire, len(children))
	for i, id := range children {
		fires[i] = childFire{parentLog: l.ID, jobID: id, seq: i}
	}
	var won bool
	var hooked []trigger.Request
	store := func(tx *schema.Store) error {
		won, err = tx.LogFinish(ctx, row)
		if err != nil || !won {
			return err
		}
		if hooked, err = c.hooked(ctx, tx, []schema.JobLog{row}); err != nil {
			return err
		}
		return c.decide(ctx, tx, fires)
	}
	if (c.durable != nil && len(fires) > 0) || c.hook != nil {
		err = s.WithTx(ctx, store)
	} else {
		err = store(s)
	}
	if err != nil || !won {
		return false, nil, nil, err
	}
	return true, fires, hooked, nil
}

// decide stores the children as pending rows in the transaction that
// stores their parents' results (when durable), setting their claims.
func (c *Completer) decide(ctx context.Context, tx *schema.Store, fires []childFire) error {
	if c.durable == nil || len(fires) == 0 {
		return nil
	}
	rows := make([]schema.PendingTrigger, len(fires))
	for i := range fires {
		req := childRequest(fires[i])
		rows[i] = c.durable.Decision(&req, fires[i].parentLog, fires[i].seq)
		fires[i].claim = req.Pending
	}
	return tx.PendingInsert(ctx, rows)
}

// childRequest is the trigger of a child job.
func childRequest(f childFire) trigger.Request {
	return trigger.Request{JobID: f.jobID, Type: trigger.TypeParent, FailRetryCount: -1, Pending: f.claim}
}

// result is the row a finished log gets: on success the child-trigger text
// appended, handle_msg capped; and the child job ids to fire.
func (c *Completer) result(ctx context.Context, s *schema.Store, jobs jobCache, l schema.JobLog) (schema.JobLog, []int, error) {
	var children []int
	if l.HandleCode == 200 {
		job, err := jobs.load(ctx, s, l.JobID)
		if err != nil {
			return l, nil, err
		}
		if job != nil && job.ChildJobID != nil && strings.TrimSpace(*job.ChildJobID) != "" {
			var text string
			text, children = c.childText(*job.ChildJobID, l.JobID)
			msg := deref(l.HandleMsg) + text
			l.HandleMsg = &msg
		}
	}
	if l.HandleMsg != nil {
		capped := truncateUTF16(*l.HandleMsg, MaxHandleMsg)
		l.HandleMsg = &capped
	}
	return l, children, nil
}

// fire queues children after their parent's result is committed, so a
// retried callback can never fire them twice.
func (c *Completer) fire(fires []childFire) {
	for _, f := range fires {
		if err := c.trigger.Submit(childRequest(f)); err != nil {
			ev := c.log.Error()
			if f.claim != 0 {
				ev = c.log.Warn().Str("pending", "a sweeper submits it again once its lease runs out")
			}
			ev.Err(err).Int64("log_id", f.parentLog).Int("job_id", f.jobID).Msg("child job not queued")
		}
	}
}

// childText builds the text appended to a successful parent's handle_msg
// (executor-protocol.md §2.5) and the child ids to fire; under
// ChildRule342 a child naming the parent itself is left out (no text, no
// trigger).
func (c *Completer) childText(childJobIDs string, parent int) (string, []int) {
	var b strings.Builder
	b.WriteString("<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>")
	b.WriteString(c.texts.Text("jobconf_trigger_child_run"))
	b.WriteString("<<<<<<<<<<< </span><br>")
	items := javaSplitComma(childJobIDs)
	var ids []int
	for i, item := range items {
		if id, ok := c.rule.childID(item); ok {
			if c.rule == ChildRule342 && id == parent {
				continue
			}
			ids = append(ids, id)
			b.WriteString(c.texts.Format("jobconf_callback_child_msg1", i+1, len(items), item, c.texts.Text("system_success"), c.rule.triggerMsg()))
		} else {
			b.WriteString(c.texts.Format("jobconf_callback_child_msg2", i+1, len(items), item))
		}
	}
	return b.String(), ids
}

// javaSplitComma is Java's String.split(","): trailing empty items dropped,
// items not trimmed.
func javaSplitComma(s string) []string {
	parts := strings.Split(s, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// truncateUTF16 keeps the first n UTF-16 code units of s, as Java's
// substring does, without leaving half a surrogate pair.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if utf16.RuneLen(r) == 2 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
