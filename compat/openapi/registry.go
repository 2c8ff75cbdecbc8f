package openapi

import (
	"net/http"
	"sort"

	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
)

// executorJSON is one live executor registration.
type executorJSON struct {
	Address    string  `json:"address"`
	UpdateTime *string `json:"updateTime"` // its last heartbeat
}

// registryJSON is a group with the addresses triggers use and the
// executors registered under its app name within the last 90 s.
type registryJSON struct {
	JobGroup    int            `json:"jobGroup"`
	AppName     string         `json:"appname"`
	Title       string         `json:"title"`
	AddressType int            `json:"addressType"`
	AddressList []string       `json:"addressList"`
	Executors   []executorJSON `json:"executors"`
}

// listRegistry lists the live executors of every group the user may use,
// or of one (jobGroup).
func (a *API) listRegistry(c *call) error {
	only, err := c.queryInt("jobGroup", 0)
	if err != nil {
		return err
	}
	if only > 0 {
		if err := c.mayUse(only); err != nil {
			return err
		}
	}
	groups, err := a.cfg.Store.GroupFindAll(c.ctx)
	if err != nil {
		return err
	}
	live, err := a.cfg.Store.RegistryFindAll(c.ctx, thread.DeadTimeout, a.now())
	if err != nil {
		return err
	}
	byApp := map[string][]executorJSON{}
	for _, r := range live {
		if r.RegistryGroup == thread.RegistryGroupExecutor {
			byApp[r.RegistryKey] = append(byApp[r.RegistryKey], executorJSON{Address: r.RegistryValue, UpdateTime: a.rfc3339(r.UpdateTime)})
		}
	}
	out := []registryJSON{}
	for _, g := range groups {
		if !c.access.May(g.ID) || only > 0 && g.ID != only {
			continue
		}
		ex := byApp[g.AppName]
		if ex == nil {
			ex = []executorJSON{}
		}
		sort.Slice(ex, func(i, j int) bool { return ex[i].Address < ex[j].Address })
		out = append(out, registryJSON{JobGroup: g.ID, AppName: g.AppName, Title: g.Title, AddressType: g.AddressType,
			AddressList: splitList(g.AddressList), Executors: ex})
	}
	if only > 0 && len(out) == 0 {
		return notFound("no executor group %d", only)
	}
	writeData(c.w, http.StatusOK, out, nil)
	return nil
}
