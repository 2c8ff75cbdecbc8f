package trigger

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// groupTTL is how long a loaded executor group is reused. Java reloads the
// group on every trigger; at thousands of triggers a second that is one
// query per trigger for rows that change every 30 s at most (the registry
// monitor's pass) or on a console edit. A second of staleness is far below
// the registry's own 30 s, and saves about a fifth of the trigger's queries.
const groupTTL = time.Second

// groupCache loads executor groups through the store, sharing each load
// for groupTTL. A missing group is cached too (as not found).
type groupCache struct {
	store *schema.Store
	now   func() time.Time

	mu      sync.Mutex
	entries map[int]groupEntry
}

type groupEntry struct {
	group   schema.Group
	missing bool
	loaded  time.Time
	// registry is the group's address list, split once per load (see
	// registryList) and shared by every trigger of the group: nothing
	// writes to it.
	registry []string
}

func newGroupCache(store *schema.Store, now func() time.Time) *groupCache {
	return &groupCache{store: store, now: now, entries: map[int]groupEntry{}}
}

// load returns the group and its registry list, or schema.ErrNotFound.
func (c *groupCache) load(ctx context.Context, id int) (schema.Group, []string, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[id]
	c.mu.Unlock()
	if !ok || now.Sub(e.loaded) >= groupTTL || now.Before(e.loaded) {
		g, err := c.store.GroupLoad(ctx, id)
		switch {
		case errors.Is(err, schema.ErrNotFound):
			e = groupEntry{missing: true, loaded: now}
		case err != nil:
			return schema.Group{}, nil, err
		default:
			e = groupEntry{group: g, loaded: now, registry: registryList(g.AddressList)}
		}
		c.mu.Lock()
		c.entries[id] = e
		c.mu.Unlock()
	}
	if e.missing {
		return schema.Group{}, nil, schema.ErrNotFound
	}
	return e.group, e.registry, nil
}
