package openapi

import (
	"net/http"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// groupJSON is an executor group as the API writes it.
type groupJSON struct {
	ID          int      `json:"id"`
	AppName     string   `json:"appname"`
	Title       string   `json:"title"`
	AddressType int      `json:"addressType"`
	AddressList []string `json:"addressList"`
	UpdateTime  *string  `json:"updateTime"`
}

func (a *API) group(g schema.Group) groupJSON {
	return groupJSON{ID: g.ID, AppName: g.AppName, Title: g.Title, AddressType: g.AddressType,
		AddressList: splitList(g.AddressList), UpdateTime: a.rfc3339(g.UpdateTime)}
}

// splitList is a comma-separated column as a list ([] for NULL or "").
func splitList(p *string) []string {
	if p == nil || *p == "" {
		return []string{}
	}
	return strings.Split(*p, ",")
}

// groupInput is the body of create and update (console.md §4 save).
type groupInput struct {
	AppName     string   `json:"appname"`
	Title       string   `json:"title"`
	AddressType int      `json:"addressType"`
	AddressList []string `json:"addressList"`
}

func (in groupInput) row() schema.Group {
	g := schema.Group{AppName: in.AppName, Title: in.Title, AddressType: in.AddressType}
	if in.AddressList != nil {
		list := strings.Join(in.AddressList, ",")
		g.AddressList = &list
	}
	return g
}

// listGroups lists the groups the user may use, with the console's
// appname and title filters.
func (a *API) listGroups(c *call) error {
	w, err := c.window()
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	all, _, err := a.cfg.Store.GroupPageList(c.ctx, 0, 1<<30,
		schema.GroupFilter{AppName: q.Get("appname"), Title: q.Get("title")})
	if err != nil {
		return err
	}
	out := []groupJSON{}
	for _, g := range all {
		if c.access.May(g.ID) {
			out = append(out, a.group(g))
		}
	}
	w.Total = len(out)
	out = out[min(w.Offset, len(out)):min(w.Offset+w.Limit, len(out))]
	writeData(c.w, http.StatusOK, out, &w)
	return nil
}

// loadGroup loads a group the user may use.
func (a *API) loadGroup(c *call) (schema.Group, error) {
	id, err := c.pathID()
	if err != nil {
		return schema.Group{}, err
	}
	g, err := a.cfg.Store.GroupLoad(c.ctx, id)
	if isNotFound(err) {
		return g, notFound("no executor group %d", id)
	}
	if err != nil {
		return g, err
	}
	return g, c.mayUse(g.ID)
}

func (a *API) getGroup(c *call) error {
	g, err := a.loadGroup(c)
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, a.group(g), nil)
	return nil
}

// createGroup is idempotent by app name: a group that exists with the
// same title and addresses is answered 200, with other values 409.
func (a *API) createGroup(c *call) error {
	if err := c.requireAdmin(); err != nil {
		return err
	}
	var in groupInput
	if err := c.decode(&in); err != nil {
		return err
	}
	old, exists, err := a.cfg.Jobs.FindGroup(c.ctx, in.AppName)
	if err != nil {
		return err
	}
	if exists {
		want := in.row()
		if old.Title != want.Title || old.AddressType != want.AddressType ||
			want.AddressType != 0 && deref(old.AddressList) != deref(want.AddressList) {
			return conflict("executor group %d already has the app name %q, with other values: change it with PUT /groups/%d", old.ID, old.AppName, old.ID)
		}
		writeData(c.w, http.StatusOK, a.group(old), nil)
		return nil
	}
	id, err := a.cfg.Jobs.AddGroup(c.ctx, in.row())
	if err != nil {
		return err
	}
	g, err := a.cfg.Store.GroupLoad(c.ctx, id)
	if err != nil {
		return err
	}
	c.w.Header().Set("Location", a.base+"/groups/"+itoa(id))
	writeData(c.w, http.StatusCreated, a.group(g), nil)
	return nil
}

func (a *API) updateGroup(c *call) error {
	if err := c.requireAdmin(); err != nil {
		return err
	}
	id, err := c.pathID()
	if err != nil {
		return err
	}
	var in groupInput
	if err := c.decode(&in); err != nil {
		return err
	}
	g := in.row()
	g.ID = id
	if err := a.cfg.Jobs.UpdateGroup(c.ctx, g); err != nil {
		if isNoRow(err) {
			return notFound("no executor group %d", id)
		}
		return err
	}
	stored, err := a.cfg.Store.GroupLoad(c.ctx, id)
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, a.group(stored), nil)
	return nil
}

func (a *API) deleteGroup(c *call) error {
	if err := c.requireAdmin(); err != nil {
		return err
	}
	id, err := c.pathID()
	if err != nil {
		return err
	}
	if _, err := a.cfg.Store.GroupLoad(c.ctx, id); isNotFound(err) {
		return notFound("no executor group %d", id)
	} else if err != nil {
		return err
	}
	if err := a.cfg.Jobs.RemoveGroup(c.ctx, id); err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, deleted{ID: id}, nil)
	return nil
}

// deleted is the answer to a delete.
type deleted struct {
	ID int `json:"id"`
}
