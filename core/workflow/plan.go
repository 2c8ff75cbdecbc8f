package workflow

import (
	"sync"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// plan is a run's graph ready for its steps: decoded, indexed and in
// topological order. A run's graph never changes (it is a copy taken at
// its start), so plans are kept by run id and every callback of a run
// does not decode and index it again.
type plan struct {
	graph Graph
	ix    index
	order []int
}

// plans keeps the plans of the runs in flight; it forgets them all when
// it holds maxPlans (runs that ended are not tracked).
type plans struct {
	mu   sync.Mutex
	byID map[int64]*plan
}

const maxPlans = 256

func (p *plans) of(run schema.WorkflowRun) (*plan, error) {
	p.mu.Lock()
	pl := p.byID[run.ID]
	p.mu.Unlock()
	if pl != nil {
		return pl, nil
	}
	g, err := DecodeGraph(run.Graph)
	if err != nil {
		return nil, err
	}
	ix := indexOf(g)
	pl = &plan{graph: g, ix: ix, order: ix.topological(g)}
	p.mu.Lock()
	if p.byID == nil || len(p.byID) >= maxPlans {
		p.byID = map[int64]*plan{}
	}
	p.byID[run.ID] = pl
	p.mu.Unlock()
	return pl, nil
}
