package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// A job's identity, for idempotent creates, export and import, is either an
// explicit key chosen by the caller or, without one, its group, executor
// handler and description. The schema has no column for a key and must not
// change (Java admins share the database), so a key lives at the end of the
// description as " [key:<key>]": it survives every edit made through the
// console or the Java admin that leaves the description's end alone, it is
// visible (the job list shows which jobs a pipeline owns) and searchable
// with the console's description filter. The price: it takes up to 71 of
// the description's 255 characters, and whoever deletes it in the console
// detaches the job from its key — the next apply creates a new job.

const (
	keyOpen   = " [key:"
	keyClose  = "]"
	keyMaxLen = 64
)

// ValidKey tells whether k can be a job key: 1–64 ASCII letters, digits
// and . _ - / : @, starting with a letter or digit.
func ValidKey(k string) bool {
	if k == "" || len(k) > keyMaxLen {
		return false
	}
	for i, r := range k {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case i > 0 && strings.ContainsRune("._-/:@", r):
		default:
			return false
		}
	}
	return true
}

// SplitKey splits a stored job_desc into the description people read and
// the job's key ("" when it has none).
func SplitKey(stored string) (desc, key string) {
	if !strings.HasSuffix(stored, keyClose) {
		return stored, ""
	}
	i := strings.LastIndex(stored, keyOpen)
	if i < 0 {
		return stored, ""
	}
	k := stored[i+len(keyOpen) : len(stored)-len(keyClose)]
	if !ValidKey(k) {
		return stored, ""
	}
	return stored[:i], k
}

// JoinKey is the job_desc that stores desc with key ("" for none).
func JoinKey(desc, key string) string {
	if key == "" {
		return desc
	}
	return desc + keyOpen + key + keyClose
}

// Identity names a job across databases.
type Identity struct {
	Key             string // when set, the only criterion: unique over every group
	JobGroup        int
	ExecutorHandler string
	JobDesc         string // without the key marker
}

func (id Identity) String() string {
	if id.Key != "" {
		return fmt.Sprintf("key %q", id.Key)
	}
	return fmt.Sprintf("group %d, handler %q, description %q", id.JobGroup, id.ExecutorHandler, id.JobDesc)
}

// IdentityOf is the identity of a stored job: its key when it has one.
func IdentityOf(j schema.JobInfo) Identity {
	desc, key := SplitKey(j.JobDesc)
	return Identity{Key: key, JobGroup: j.JobGroup, ExecutorHandler: str(j.ExecutorHandler), JobDesc: desc}
}

// jobLookup gives the jobs that may match an identity: every keyed job, or
// every job of the identity's group.
type jobLookup interface {
	candidates(ctx context.Context, id Identity) ([]schema.JobInfo, error)
}

// storeLookup queries the store for every lookup.
type storeLookup struct{ st *schema.Store }

func (l storeLookup) candidates(ctx context.Context, id Identity) ([]schema.JobInfo, error) {
	if id.Key != "" {
		list, _, err := l.st.JobPageList(ctx, 0, 1<<30, schema.JobFilter{JobDesc: JoinKey("", id.Key)})
		return list, err
	}
	return l.st.JobsByGroup(ctx, id.JobGroup)
}

// jobIndex serves the lookups of one batch from memory: each group's jobs,
// and the keyed jobs, are read once, and every job the batch writes is
// read back into it (refresh). Without it an import of n jobs of one group
// reads the group n times over, all while holding the schedule lock. It
// is only valid inside the batch's schedule-lock transaction, where no
// other writer changes job identities.
type jobIndex struct {
	st     *schema.Store
	jobs   map[int]schema.JobInfo
	groups map[int]bool
	keyed  bool
}

func newJobIndex(st *schema.Store) *jobIndex {
	return &jobIndex{st: st, jobs: map[int]schema.JobInfo{}, groups: map[int]bool{}}
}

func (x *jobIndex) candidates(ctx context.Context, id Identity) ([]schema.JobInfo, error) {
	if id.Key != "" && !x.keyed {
		list, _, err := x.st.JobPageList(ctx, 0, 1<<30, schema.JobFilter{JobDesc: keyOpen})
		if err != nil {
			return nil, err
		}
		x.add(list)
		x.keyed = true
	}
	if id.Key == "" && !x.groups[id.JobGroup] {
		list, err := x.st.JobsByGroup(ctx, id.JobGroup)
		if err != nil {
			return nil, err
		}
		x.add(list)
		x.groups[id.JobGroup] = true
	}
	var out []schema.JobInfo
	for _, j := range x.jobs {
		if id.Key != "" || j.JobGroup == id.JobGroup {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(a, b schema.JobInfo) int { return a.ID - b.ID })
	return out, nil
}

func (x *jobIndex) add(list []schema.JobInfo) {
	for _, j := range list {
		x.jobs[j.ID] = j
	}
}

// refresh reads a job the batch wrote back into the index.
func (x *jobIndex) refresh(ctx context.Context, id int) error {
	j, err := x.st.JobLoad(ctx, id)
	if errors.Is(err, schema.ErrNotFound) {
		delete(x.jobs, id)
		return nil
	}
	if err != nil {
		return err
	}
	x.jobs[id] = j
	return nil
}

// findJob looks a job up by identity. Several matches are a conflict the
// caller has to resolve by hand (give the jobs keys or distinct
// descriptions).
func findJob(ctx context.Context, l jobLookup, id Identity) (schema.JobInfo, bool, error) {
	candidates, err := l.candidates(ctx, id)
	if err != nil {
		return schema.JobInfo{}, false, err
	}
	var found []schema.JobInfo
	for _, j := range candidates {
		desc, key := SplitKey(j.JobDesc)
		if id.Key != "" && key == id.Key ||
			id.Key == "" && desc == id.JobDesc && str(j.ExecutorHandler) == id.ExecutorHandler {
			found = append(found, j)
		}
	}
	switch len(found) {
	case 0:
		return schema.JobInfo{}, false, nil
	case 1:
		return found[0], true, nil
	}
	ids := make([]string, 0, len(found))
	for _, j := range found {
		ids = append(ids, fmt.Sprint(j.ID))
	}
	return schema.JobInfo{}, false, &Refusal{Err: ErrConflict,
		Msg: fmt.Sprintf("jobs %s all match %s: give them distinct descriptions or keys", strings.Join(ids, ", "), id)}
}

// FindJob looks a job up by identity; ok is false when none matches.
func (s *Service) FindJob(ctx context.Context, id Identity) (j schema.JobInfo, ok bool, err error) {
	return findJob(ctx, storeLookup{s.store}, id)
}

// findGroup looks an executor group up by its app name, which identifies a
// group across databases (the Java admin does not keep it unique: two
// groups with one app name are a conflict).
func (s *Service) findGroup(ctx context.Context, st *schema.Store, appname string) (schema.Group, bool, error) {
	all, err := st.GroupFindAll(ctx)
	if err != nil {
		return schema.Group{}, false, err
	}
	var found []schema.Group
	for _, g := range all {
		if g.AppName == appname {
			found = append(found, g)
		}
	}
	switch len(found) {
	case 0:
		return schema.Group{}, false, nil
	case 1:
		return found[0], true, nil
	}
	return schema.Group{}, false, &Refusal{Err: ErrConflict,
		Msg: fmt.Sprintf("%d executor groups have the app name %q: remove the extra ones", len(found), appname)}
}

// FindGroup looks an executor group up by app name; ok is false when none has it.
func (s *Service) FindGroup(ctx context.Context, appname string) (g schema.Group, ok bool, err error) {
	return s.findGroup(ctx, s.store, appname)
}
