package transfer

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// Mode is what an import does with groups and jobs that already exist.
type Mode string

// Import modes. Neither deletes anything that is not in the document.
const (
	// Merge creates what is missing and leaves existing groups and jobs
	// as they are (reported as "kept" when they differ).
	Merge Mode = "merge"
	// Overwrite also updates existing groups and jobs to the document's
	// values, GLUE source and running state included.
	Overwrite Mode = "overwrite"
)

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case Merge, Overwrite:
		return Mode(s), nil
	}
	return "", fmt.Errorf("import mode %q: use merge or overwrite", s)
}

// ImportOptions control an import.
type ImportOptions struct {
	Mode   Mode
	DryRun bool // report what would change, write nothing
	// Access must be an admin's: an import creates executor groups.
	Access jobs.Access
	// Workflows says the workflow tables exist: without it a document
	// with workflows is refused, not imported without them.
	Workflows bool
	// Now and Loc compute an imported workflow's next fire time (Loc is
	// the admin's zone, for a schedule without its own).
	Now time.Time
	Loc *time.Location
	// Progress, when set, is told after each job of each of the two passes
	// (an import of thousands of jobs takes a while): the command line
	// shows it on a terminal.
	Progress func(ImportProgress)
}

// ImportProgress is how far an import is: pass 1 creates the jobs that do
// not exist yet, pass 2 writes every job's children, running state and
// fields; Done of Total jobs of the pass.
type ImportProgress struct {
	Pass, Done, Total int
}

// Change is what an import did, or would do, with one group or job.
type Change struct {
	Kind    string       `json:"kind"` // "group", "job" or "workflow"
	Name    string       `json:"name"` // the app name, or the job's or workflow's identity
	Outcome jobs.Outcome `json:"outcome"`
	ID      int          `json:"id"`               // the row's id (a dry run's new ids are not kept)
	Fields  []string     `json:"fields,omitempty"` // fields that differ: written (updated) or not (kept)
}

// Report is the result of an import.
type Report struct {
	Mode    Mode     `json:"mode"`
	DryRun  bool     `json:"dryRun"`
	Changes []Change `json:"changes"`
}

// Count is how many changes had the outcome.
func (r Report) Count(kind string, o jobs.Outcome) int {
	n := 0
	for _, c := range r.Changes {
		if c.Kind == kind && c.Outcome == o {
			n++
		}
	}
	return n
}

// ItemError is an import refused because of one group or job of the
// document; Err keeps the service's classification (a *jobs.Refusal with
// the console's message, jobs.ErrConflict, ...).
type ItemError struct {
	Item string
	Err  error
}

func (e *ItemError) Error() string { return e.Item + ": " + e.Err.Error() }
func (e *ItemError) Unwrap() error { return e.Err }

// Import applies a document through the job service in one schedule-lock
// transaction: every group and job is written, or — on the first refusal —
// none. Groups are matched by app name, jobs by key or else group, executor
// handler and description. New jobs are created first without children, so
// child references may point at jobs of the same document in any order;
// then every job gets its children and running state. A dry run does the
// same and rolls back, so it reports exactly what a real import would do,
// refusals included.
func Import(ctx context.Context, svc *jobs.Service, doc Document, opt ImportOptions) (Report, error) {
	if !opt.Access.Admin {
		return Report{}, jobs.ErrPermission
	}
	if _, err := ParseMode(string(opt.Mode)); err != nil {
		return Report{}, err
	}
	if err := checkUnique(doc); err != nil {
		return Report{}, err
	}
	if len(doc.Workflows) > 0 && !opt.Workflows {
		return Report{}, fmt.Errorf("the document has %d workflows and workflows are off here: set xxl.job.workflows.enabled=true", len(doc.Workflows))
	}
	if opt.Loc == nil {
		opt.Loc = time.Local
	}
	rep := Report{Mode: opt.Mode, DryRun: opt.DryRun, Changes: []Change{}}
	run := func(b *jobs.Batch) error {
		im := importer{b: b, opt: opt, groups: map[string]int{}}
		var err error
		rep.Changes, err = im.run(ctx, doc)
		return err
	}
	var err error
	if opt.DryRun {
		err = svc.DryRun(ctx, run)
	} else {
		err = svc.Batch(ctx, run)
	}
	if err != nil {
		return Report{}, err
	}
	return rep, nil
}

// checkUnique refuses a document that names one group or job twice.
func checkUnique(doc Document) error {
	seen := map[string]int{}
	for i, g := range doc.Groups {
		if j, dup := seen[g.AppName]; dup {
			return fmt.Errorf("groups %d and %d of the document have the same app name %q", j+1, i+1, g.AppName)
		}
		seen[g.AppName] = i
	}
	seen = map[string]int{}
	for i, j := range doc.Jobs {
		k := j.Ref().String()
		if j.Key == "" {
			k = j.Group + "\x00" + k
		}
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("jobs %d and %d of the document are the same job (%s): give them distinct descriptions or keys", prev+1, i+1, j.Ref())
		}
		seen[k] = i
	}
	seen = map[string]int{}
	for i, w := range doc.Workflows {
		k := w.Group + "\x00" + w.Name
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("workflows %d and %d of the document are the same workflow (%s)", prev+1, i+1, w)
		}
		seen[k] = i
	}
	return nil
}

type importer struct {
	b      *jobs.Batch
	opt    ImportOptions
	groups map[string]int // app name → id
}

func (im *importer) run(ctx context.Context, doc Document) ([]Change, error) {
	changes := []Change{}
	for _, g := range doc.Groups {
		c, err := im.group(g)
		if err != nil {
			return nil, &ItemError{Item: fmt.Sprintf("group %q", g.AppName), Err: err}
		}
		changes = append(changes, c)
	}
	// Pass 1: every job of the document exists, new ones without children
	// and stopped.
	created := make([]bool, len(doc.Jobs))
	for i, j := range doc.Jobs {
		im.progress(1, i, len(doc.Jobs))
		sp, err := im.spec(j, nil)
		if err != nil {
			return nil, im.jobError(i, j, err)
		}
		if _, exists, err := im.b.FindJob(sp.Identity()); err != nil {
			return nil, im.jobError(i, j, err)
		} else if exists {
			continue
		}
		sp.Job.ChildJobID, sp.Running = nil, nil
		if _, err := im.b.Apply(sp, jobs.Overwrite, nil); err != nil {
			return nil, im.jobError(i, j, err)
		}
		created[i] = true
	}
	im.progress(1, len(doc.Jobs), len(doc.Jobs))
	// Pass 2: children resolved, running state, and the mode's treatment
	// of jobs that existed before.
	for i, j := range doc.Jobs {
		im.progress(2, i, len(doc.Jobs))
		sp, err := im.spec(j, &j.Running)
		if err != nil {
			return nil, im.jobError(i, j, err)
		}
		if sp.Job.ChildJobID, err = im.children(j.ChildJobs); err != nil {
			return nil, im.jobError(i, j, err)
		}
		mode := jobs.Keep
		if im.opt.Mode == Overwrite || created[i] {
			mode = jobs.Overwrite
		}
		res, err := im.b.Apply(sp, mode, nil)
		if err != nil {
			return nil, im.jobError(i, j, err)
		}
		c := Change{Kind: "job", Name: j.Ref().String(), Outcome: res.Outcome, ID: res.ID, Fields: res.Changed}
		if created[i] {
			c.Outcome, c.Fields = jobs.Created, nil
		}
		changes = append(changes, c)
	}
	im.progress(2, len(doc.Jobs), len(doc.Jobs))
	ws, err := im.workflows(ctx, doc)
	if err != nil {
		return nil, err
	}
	return append(changes, ws...), nil
}

// progress tells opt.Progress that done jobs of the pass are through.
func (im *importer) progress(pass, done, total int) {
	if im.opt.Progress != nil {
		im.opt.Progress(ImportProgress{Pass: pass, Done: done, Total: total})
	}
}

func (im *importer) jobError(i int, j Job, err error) error {
	return &ItemError{Item: fmt.Sprintf("job %d (%s)", i+1, j.Ref()), Err: err}
}

// group creates or matches one group.
func (im *importer) group(g Group) (Change, error) {
	want := schema.Group{AppName: g.AppName, Title: g.Title, AddressType: g.AddressType}
	if g.AddressType != 0 {
		list := strings.Join(g.AddressList, ",")
		want.AddressList = &list
	}
	c := Change{Kind: "group", Name: g.AppName}
	old, exists, err := im.b.FindGroup(g.AppName)
	if err != nil {
		return c, err
	}
	if !exists {
		id, err := im.b.AddGroup(want)
		if err != nil {
			return c, err
		}
		im.groups[g.AppName] = id
		c.Outcome, c.ID = jobs.Created, id
		return c, nil
	}
	im.groups[g.AppName] = old.ID
	c.ID, c.Outcome = old.ID, jobs.Unchanged
	if old.Title != want.Title {
		c.Fields = append(c.Fields, "title")
	}
	if old.AddressType != want.AddressType {
		c.Fields = append(c.Fields, "addressType")
	}
	if want.AddressType != 0 && str(old.AddressList) != str(want.AddressList) {
		c.Fields = append(c.Fields, "addressList")
	}
	switch {
	case len(c.Fields) == 0:
	case im.opt.Mode == Overwrite:
		want.ID = old.ID
		if err := im.b.UpdateGroup(want); err != nil {
			return c, err
		}
		c.Outcome = jobs.Updated
	default:
		c.Outcome = jobs.Kept
	}
	return c, nil
}

// groupID is the id of an app name: a group of the document or one the
// database already has.
func (im *importer) groupID(appname string) (int, error) {
	if id, ok := im.groups[appname]; ok {
		return id, nil
	}
	g, ok, err := im.b.FindGroup(appname)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, &jobs.Refusal{Err: jobs.ErrNotFound,
			Msg: fmt.Sprintf("executor group %q is neither in the document nor in the database", appname)}
	}
	im.groups[appname] = g.ID
	return g.ID, nil
}

// spec is the service's view of a document job, without children.
func (im *importer) spec(j Job, running *bool) (jobs.Spec, error) {
	group, err := im.groupID(j.Group)
	if err != nil {
		return jobs.Spec{}, err
	}
	return jobs.Spec{Key: j.Key, Running: running, Job: schema.JobInfo{
		JobGroup: group, JobDesc: j.JobDesc, Author: j.Author, AlarmEmail: j.AlarmEmail,
		ScheduleType: j.ScheduleType, ScheduleConf: j.ScheduleConf, MisfireStrategy: j.MisfireStrategy,
		ExecutorRouteStrategy: j.ExecutorRouteStrategy, ExecutorHandler: j.ExecutorHandler, ExecutorParam: j.ExecutorParam,
		ExecutorBlockStrategy: j.ExecutorBlockStrategy, ExecutorTimeout: j.ExecutorTimeout,
		ExecutorFailRetryCount: j.ExecutorFailRetryCount, GlueType: j.GlueType, GlueSource: j.GlueSource,
		GlueRemark: j.GlueRemark,
		// The document is the whole job: no zone is the admin's zone.
		ScheduleTimezone: &j.ScheduleTimezone,
	}}, nil
}

// children resolves child references to the comma-separated ids add and
// update take.
func (im *importer) children(refs []Ref) (*string, error) {
	ids := make([]string, 0, len(refs))
	for _, r := range refs {
		id := jobs.Identity{Key: r.Key}
		if r.Key == "" {
			group, err := im.groupID(r.Group)
			if err != nil {
				return nil, fmt.Errorf("child job %s: %w", r, err)
			}
			id = jobs.Identity{JobGroup: group, ExecutorHandler: r.ExecutorHandler, JobDesc: r.JobDesc}
		}
		j, ok, err := im.b.FindJob(id)
		if err != nil {
			return nil, fmt.Errorf("child job %s: %w", r, err)
		}
		if !ok {
			return nil, &jobs.Refusal{Err: jobs.ErrNotFound,
				Msg: fmt.Sprintf("child job %s is neither in the document nor in the database", r)}
		}
		ids = append(ids, strconv.Itoa(j.ID))
	}
	joined := strings.Join(ids, ",")
	return &joined, nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
