package transfer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// ErrNoGroup is an export of an app name no (permitted) group has.
var ErrNoGroup = errors.New("no such executor group")

// ExportOptions select what Export writes.
type ExportOptions struct {
	// AppName limits the export to one group ("": every group).
	AppName string
	// Access limits it to the groups the user may use.
	Access jobs.Access
	Now    time.Time // ExportedAt
	// Workflows adds the groups' workflows (their tables exist only when
	// workflows are on).
	Workflows bool
}

// Export reads the groups and their jobs, GLUE source included, into a
// document. Groups are ordered by app name, jobs by group and id. A child
// id naming no job any more (Java keeps such ids; they trigger nothing) is
// left out, since it has no identity to refer to.
func Export(ctx context.Context, st *schema.Store, opt ExportOptions) (Document, error) {
	all, err := st.GroupFindAll(ctx)
	if err != nil {
		return Document{}, err
	}
	doc := Document{Format: FormatName, Version: Version, ExportedAt: opt.Now.Format(time.RFC3339),
		Groups: []Group{}, Jobs: []Job{}}
	names := map[int]string{}
	for _, g := range all {
		names[g.ID] = g.AppName
	}
	var chosen []schema.Group
	for _, g := range all {
		if opt.Access.May(g.ID) && (opt.AppName == "" || g.AppName == opt.AppName) {
			chosen = append(chosen, g)
		}
	}
	if opt.AppName != "" && len(chosen) == 0 {
		return Document{}, fmt.Errorf("export %q: %w", opt.AppName, ErrNoGroup)
	}
	refs := refCache{st: st, names: names, refs: map[int]*Ref{}}
	for _, g := range chosen {
		doc.Groups = append(doc.Groups, exportGroup(g))
		list, err := st.JobsByGroup(ctx, g.ID)
		if err != nil {
			return Document{}, err
		}
		for _, j := range list {
			e, err := exportJob(ctx, j, g.AppName, &refs)
			if err != nil {
				return Document{}, err
			}
			doc.Jobs = append(doc.Jobs, e)
		}
		if opt.Workflows {
			ws, err := exportWorkflows(ctx, st, g, &refs)
			if err != nil {
				return Document{}, err
			}
			doc.Workflows = append(doc.Workflows, ws...)
		}
	}
	return doc, nil
}

func exportGroup(g schema.Group) Group {
	out := Group{AppName: g.AppName, Title: g.Title, AddressType: g.AddressType, AddressList: []string{}}
	if g.AddressType != 0 && g.AddressList != nil {
		out.AddressList = strings.Split(*g.AddressList, ",")
	}
	return out
}

func exportJob(ctx context.Context, j schema.JobInfo, appname string, refs *refCache) (Job, error) {
	desc, key := jobs.SplitKey(j.JobDesc)
	e := Job{Group: appname, Key: key, JobDesc: desc, Author: j.Author, AlarmEmail: j.AlarmEmail,
		ScheduleType: j.ScheduleType, ScheduleConf: j.ScheduleConf, MisfireStrategy: j.MisfireStrategy,
		ExecutorRouteStrategy: j.ExecutorRouteStrategy, ExecutorHandler: j.ExecutorHandler, ExecutorParam: j.ExecutorParam,
		ExecutorBlockStrategy: j.ExecutorBlockStrategy, ExecutorTimeout: j.ExecutorTimeout,
		ExecutorFailRetryCount: j.ExecutorFailRetryCount, GlueType: j.GlueType, GlueSource: j.GlueSource,
		GlueRemark: j.GlueRemark, ChildJobs: []Ref{}, Running: j.TriggerStatus == 1}
	if j.ScheduleTimezone != nil {
		e.ScheduleTimezone = *j.ScheduleTimezone
	}
	if j.ChildJobID == nil {
		return e, nil
	}
	for _, item := range strings.Split(*j.ChildJobID, ",") {
		id, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil {
			continue // add and update refuse such items; a row written otherwise keeps nothing to refer to
		}
		r, err := refs.ref(ctx, id)
		if err != nil {
			return Job{}, err
		}
		if r != nil {
			e.ChildJobs = append(e.ChildJobs, *r)
		}
	}
	return e, nil
}

// refCache turns child ids into references, loading each job once.
type refCache struct {
	st    *schema.Store
	names map[int]string
	refs  map[int]*Ref
}

func (c *refCache) ref(ctx context.Context, id int) (*Ref, error) {
	if r, ok := c.refs[id]; ok {
		return r, nil
	}
	j, err := c.st.JobLoad(ctx, id)
	if errors.Is(err, schema.ErrNotFound) {
		c.refs[id] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	desc, key := jobs.SplitKey(j.JobDesc)
	handler := ""
	if j.ExecutorHandler != nil {
		handler = *j.ExecutorHandler
	}
	r := &Ref{Group: c.names[j.JobGroup], Key: key, ExecutorHandler: handler, JobDesc: desc}
	c.refs[id] = r
	return r, nil
}
