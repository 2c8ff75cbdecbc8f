package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Spec is a job as a caller wants it to be: what a pipeline applies, or an
// entry of an import file.
type Spec struct {
	// Job holds the editable fields, as add and update take them; its id,
	// times and trigger fields are ignored. JobDesc is without key marker.
	// A nil GlueSource leaves an existing job's source alone; GlueRemark is
	// the new job's remark, or the remark of the version an update writes.
	Job schema.JobInfo
	// Key is the optional explicit identity (see identity.go).
	Key string
	// Running is the wanted state: nil keeps an existing job's state and
	// leaves a new one stopped.
	Running *bool
}

// Identity is the spec's identity: its key, else group, handler and description.
func (sp Spec) Identity() Identity {
	if sp.Key != "" {
		return Identity{Key: sp.Key}
	}
	return Identity{JobGroup: sp.Job.JobGroup, ExecutorHandler: str(sp.Job.ExecutorHandler), JobDesc: sp.Job.JobDesc}
}

// Mode is what Apply does with a job that already exists.
type Mode int

const (
	// CreateOnly is an idempotent create: an existing job must already be
	// as specified, else the apply fails with a *MismatchError.
	CreateOnly Mode = iota
	// Keep leaves an existing job as it is (import --mode merge).
	Keep
	// Overwrite updates an existing job to the spec (apply, import
	// --mode overwrite).
	Overwrite
)

// Outcome is what Apply did.
type Outcome string

// Outcomes of Apply.
const (
	Created   Outcome = "created"
	Updated   Outcome = "updated"
	Unchanged Outcome = "unchanged" // it exists exactly as specified
	Kept      Outcome = "kept"      // it exists with other values, left alone (Keep)
)

// Applied reports one Apply.
type Applied struct {
	ID      int
	Outcome Outcome
	// Changed names the fields (JSON names) that differed: written for
	// Updated, left alone for Kept.
	Changed []string
}

// MismatchError is an idempotent create whose job exists with other values.
type MismatchError struct {
	ID     int
	Fields []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("job %d already exists with other values (%s)", e.ID, strings.Join(e.Fields, ", "))
}

// Is makes a mismatch an ErrConflict.
func (e *MismatchError) Is(target error) bool { return target == ErrConflict }

// Apply creates the job a spec names or, when it exists, treats it as mode
// says, all inside one schedule-lock transaction: two callers applying the
// same spec at once — on one admin or on several sharing the database —
// serialise on the lock and the second finds the first one's job. may is
// checked for the spec's group, the existing job's group and child jobs.
func (s *Service) Apply(ctx context.Context, sp Spec, mode Mode, may MayUseGroup) (Applied, error) {
	var res Applied
	err := s.Batch(ctx, func(b *Batch) error {
		var err error
		res, err = b.Apply(sp, mode, may)
		return err
	})
	if err != nil {
		return Applied{}, err
	}
	return res, nil
}

// apply is Apply inside a batch; the job it wrote is read back into the
// batch's index.
func (s *Service) apply(ctx context.Context, b *Batch, sp Spec, mode Mode, may MayUseGroup) (Applied, error) {
	res, err := s.applyTx(ctx, b.tx, b.index, sp, mode, may)
	if err != nil {
		return Applied{}, err
	}
	if res.Outcome == Created || res.Outcome == Updated {
		if err := b.index.refresh(ctx, res.ID); err != nil {
			return Applied{}, err
		}
	}
	return res, nil
}

func (s *Service) applyTx(ctx context.Context, tx *schema.Store, lookup jobLookup, sp Spec, mode Mode, may MayUseGroup) (Applied, error) {
	if may == nil {
		may = func(int) bool { return true }
	}
	if err := s.checkSpec(sp); err != nil {
		return Applied{}, err
	}
	if !may(sp.Job.JobGroup) {
		return Applied{}, ErrPermission
	}
	j := wanted(sp)
	old, exists, err := findJob(ctx, lookup, sp.Identity())
	if err != nil {
		return Applied{}, err
	}
	if !exists {
		j.ID, j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime = 0, 0, 0, 0
		id, err := s.add(ctx, tx, j, may)
		if err != nil {
			return Applied{}, err
		}
		if sp.Running != nil && *sp.Running {
			if err := s.startID(ctx, tx, id); err != nil {
				return Applied{}, err
			}
		}
		return Applied{ID: id, Outcome: Created}, nil
	}
	if !may(old.JobGroup) {
		return Applied{}, ErrPermission
	}
	if sp.Key == "" { // matched by group, handler and description: keep its key
		_, oldKey := SplitKey(old.JobDesc)
		j.JobDesc = JoinKey(sp.Job.JobDesc, oldKey)
	}
	return s.overwrite(ctx, tx, old, j, sp.Running, mode, may)
}

// wanted is the row a spec asks for: the key in the description, "\r"
// stripped from GLUE_SHELL source as add does.
func wanted(sp Spec) schema.JobInfo {
	j := sp.Job
	j.JobDesc = JoinKey(j.JobDesc, sp.Key)
	if j.GlueType == GlueShell && j.GlueSource != nil {
		src := strings.ReplaceAll(*j.GlueSource, "\r", "")
		j.GlueSource = &src
	}
	return j
}

// Replace updates the job with the given id to a spec (the job API's
// update), in one schedule-lock transaction, through the same steps as an
// apply that found it. Without a key the job keeps its own; a key another
// job carries is a conflict.
func (s *Service) Replace(ctx context.Context, id int, sp Spec, may MayUseGroup) (Applied, error) {
	if may == nil {
		may = func(int) bool { return true }
	}
	var res Applied
	err := s.Batch(ctx, func(b *Batch) error {
		tx := b.tx
		if err := s.checkSpec(sp); err != nil {
			return err
		}
		old, err := tx.JobLoadForUpdate(ctx, id)
		if errors.Is(err, schema.ErrNotFound) {
			return s.refuseAs(ErrNotFound, "jobinfo_field_id", "system_not_found")
		}
		if err != nil {
			return err
		}
		if !may(old.JobGroup) || !may(sp.Job.JobGroup) {
			return ErrPermission
		}
		j := wanted(sp)
		if sp.Key == "" {
			_, oldKey := SplitKey(old.JobDesc)
			j.JobDesc = JoinKey(sp.Job.JobDesc, oldKey)
		} else if other, taken, err := findJob(ctx, b.index, Identity{Key: sp.Key}); err != nil {
			return err
		} else if taken && other.ID != id {
			return &Refusal{Err: ErrConflict, Msg: fmt.Sprintf("key %q is taken by job %d", sp.Key, other.ID)}
		}
		res, err = s.overwrite(ctx, tx, old, j, sp.Running, Overwrite, may)
		if err == nil {
			b.applied = append(b.applied, res)
		}
		return err
	})
	if err != nil {
		return Applied{}, err
	}
	return res, nil
}

// overwrite treats an existing job old that should be j (desc with key
// marker) as mode says.
func (s *Service) overwrite(ctx context.Context, tx *schema.Store, old, j schema.JobInfo, running *bool, mode Mode, may MayUseGroup) (Applied, error) {
	fields, glueChanged, runChanged := diff(old, j, running)
	res := Applied{ID: old.ID, Outcome: Unchanged, Changed: fields}
	switch {
	case len(fields) == 0:
		return res, nil
	case mode == CreateOnly:
		return Applied{}, &MismatchError{ID: old.ID, Fields: fields}
	case mode == Keep:
		res.Outcome = Kept
		return res, nil
	}
	if old.GlueType != j.GlueType {
		return Applied{}, &Refusal{Err: ErrConflict, Msg: fmt.Sprintf("%s%s: %s cannot become %s (remove the job and create it again)",
			s.texts.Text("jobinfo_field_gluetype"), s.texts.Text("system_unvalid"), old.GlueType, j.GlueType)}
	}
	res.Outcome = Updated
	if len(fields) > btoi(glueChanged)+btoi(runChanged) {
		j.ID = old.ID
		if err := s.update(ctx, tx, j, may); err != nil {
			return Applied{}, err
		}
	}
	if glueChanged {
		if err := s.checkGlueRemark(j.GlueRemark); err != nil {
			return Applied{}, err
		}
		if err := s.saveGlue(ctx, tx, old, j.GlueSource, *j.GlueRemark); err != nil {
			return Applied{}, err
		}
	}
	if runChanged {
		cur, err := tx.JobLoadForUpdate(ctx, old.ID)
		if err != nil {
			return Applied{}, notFound(err, old.ID)
		}
		if *running {
			err = s.start(ctx, tx, cur)
		} else {
			err = s.stop(ctx, tx, cur)
		}
		if err != nil {
			return Applied{}, err
		}
	}
	return res, nil
}

func (s *Service) startID(ctx context.Context, tx *schema.Store, id int) error {
	j, err := tx.JobLoadForUpdate(ctx, id)
	if err != nil {
		return notFound(err, id)
	}
	return s.start(ctx, tx, j)
}

// checkSpec refuses what only a spec can get wrong: a bad key, or a
// description that would read back as carrying one.
func (s *Service) checkSpec(sp Spec) error {
	if sp.Key != "" && !ValidKey(sp.Key) {
		return &Refusal{Msg: fmt.Sprintf("key %q: use 1–%d letters, digits and . _ - / : @, starting with a letter or digit", sp.Key, keyMaxLen)}
	}
	if _, k := SplitKey(sp.Job.JobDesc); k != "" {
		return &Refusal{Msg: s.texts.Text("jobinfo_field_jobdesc") + s.texts.Text("system_unvalid") +
			": it must not end with a [key:…] marker (give the key as key)"}
	}
	return nil
}

// diff names the fields where the stored job old differs from the wanted j
// (desc with its key marker), and whether the GLUE source and the running
// state are among them.
func diff(old, j schema.JobInfo, running *bool) (fields []string, glue, run bool) {
	eq := func(name string, same bool) {
		if !same {
			fields = append(fields, name)
		}
	}
	eq("jobGroup", old.JobGroup == j.JobGroup)
	eq("jobDesc", old.JobDesc == j.JobDesc)
	eq("author", str(old.Author) == str(j.Author))
	eq("alarmEmail", str(old.AlarmEmail) == str(j.AlarmEmail))
	eq("scheduleType", old.ScheduleType == j.ScheduleType)
	eq("scheduleConf", str(old.ScheduleConf) == str(j.ScheduleConf))
	eq("misfireStrategy", old.MisfireStrategy == j.MisfireStrategy)
	eq("executorRouteStrategy", str(old.ExecutorRouteStrategy) == str(j.ExecutorRouteStrategy))
	eq("executorHandler", str(old.ExecutorHandler) == str(j.ExecutorHandler))
	eq("executorParam", str(old.ExecutorParam) == str(j.ExecutorParam))
	eq("executorBlockStrategy", str(old.ExecutorBlockStrategy) == str(j.ExecutorBlockStrategy))
	eq("executorTimeout", old.ExecutorTimeout == j.ExecutorTimeout)
	eq("executorFailRetryCount", old.ExecutorFailRetryCount == j.ExecutorFailRetryCount)
	eq("glueType", old.GlueType == j.GlueType)
	eq("childJobId", normalChildren(str(old.ChildJobID)) == normalChildren(str(j.ChildJobID)))
	if j.GlueSource != nil && str(old.GlueSource) != *j.GlueSource {
		fields, glue = append(fields, "glueSource"), true
	}
	if running != nil && *running != (old.TriggerStatus == 1) {
		fields, run = append(fields, "running"), true
	}
	return fields, glue, run
}

// normalChildren is a child list as add and update store it.
func normalChildren(s string) string {
	if javaTrim(s) == "" {
		return ""
	}
	return strings.Join(javaSplit(s, ","), ",")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Batch is several changes in one schedule-lock transaction: all of them
// are written, or none (an import, a dry run that rolls back).
type Batch struct {
	s     *Service
	tx    *schema.Store
	ctx   context.Context
	index *jobIndex
	// applied are the jobs written, audited once the batch committed.
	applied []Applied
}

// Batch runs fn in one schedule-lock transaction, committed when fn
// returns nil. Keep batches short: schedule rounds wait for them. Each job
// it created or changed gets its audit line after the commit.
func (s *Service) Batch(ctx context.Context, fn func(b *Batch) error) error {
	var last *Batch // the attempt that committed, if the store ran fn again
	err := s.store.WithScheduleLock(ctx, func(tx *schema.Store) error {
		last = &Batch{s: s, tx: tx, ctx: ctx, index: newJobIndex(tx)}
		return fn(last)
	})
	if err != nil {
		return err
	}
	for _, a := range last.applied {
		s.auditApplied(ctx, a)
	}
	return nil
}

// Store reads inside the batch's transaction.
func (b *Batch) Store() *schema.Store { return b.tx }

// Apply is Service.Apply inside the batch.
func (b *Batch) Apply(sp Spec, mode Mode, may MayUseGroup) (Applied, error) {
	res, err := b.s.apply(b.ctx, b, sp, mode, may)
	if err == nil {
		b.applied = append(b.applied, res)
	}
	return res, err
}

// FindJob is Service.FindJob inside the batch.
func (b *Batch) FindJob(id Identity) (schema.JobInfo, bool, error) {
	return findJob(b.ctx, b.index, id)
}

// FindGroup is Service.FindGroup inside the batch.
func (b *Batch) FindGroup(appname string) (schema.Group, bool, error) {
	return b.s.findGroup(b.ctx, b.tx, appname)
}

// AddGroup is Service.AddGroup inside the batch.
func (b *Batch) AddGroup(g schema.Group) (int, error) { return b.s.addGroup(b.ctx, b.tx, g) }

// UpdateGroup is Service.UpdateGroup inside the batch.
func (b *Batch) UpdateGroup(g schema.Group) error { return b.s.updateGroup(b.ctx, b.tx, g) }

// errRollback ends a batch without writing (dry runs).
var errRollback = errors.New("dry run: rolled back")

// DryRun runs fn like Batch and always rolls back: what fn reports is what
// a real run would do, validation included, and nothing is written.
func (s *Service) DryRun(ctx context.Context, fn func(b *Batch) error) error {
	err := s.Batch(ctx, func(b *Batch) error {
		if err := fn(b); err != nil {
			return err
		}
		return errRollback
	})
	if errors.Is(err, errRollback) {
		return nil
	}
	return err
}
