package console

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// JobGroupController (console.md §4); the routes are admin-only.

func (c *Console) jobgroupPage(x *exchange) error {
	c.render(x, c.page(x, "jobgroup", nil))
	return nil
}

func (c *Console) jobgroupPageList(x *exchange) error {
	start, err := x.form.intOr("start", 0)
	if err != nil {
		return err
	}
	length, err := x.form.intOr("length", 10)
	if err != nil {
		return err
	}
	list, total, err := c.store.GroupPageList(x.ctx, start, length,
		schema.GroupFilter{AppName: x.form.text("appname"), Title: x.form.text("title")})
	if err != nil {
		return err
	}
	rows := make([]groupJSON, 0, len(list))
	for _, g := range list {
		rows = append(rows, toGroupJSON(g))
	}
	dataTable(x.w, rows, total)
	return nil
}

// groupForm binds the group bean of save and update.
func groupForm(f form) (schema.Group, error) {
	addressType, err := f.intOr("addressType", 0)
	if err != nil {
		return schema.Group{}, err
	}
	id, err := f.intOr("id", 0)
	if err != nil {
		return schema.Group{}, err
	}
	return schema.Group{ID: id, AppName: f.text("appname"), Title: f.text("title"), AddressType: addressType,
		AddressList: f.str("addressList")}, nil
}

func (c *Console) jobgroupSave(x *exchange) error {
	g, err := groupForm(x.form)
	if err != nil {
		return err
	}
	if _, err := c.jobs.AddGroup(x.ctx, g); err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

func (c *Console) jobgroupUpdate(x *exchange) error {
	g, err := groupForm(x.form)
	if err != nil {
		return err
	}
	if err := c.jobs.UpdateGroup(x.ctx, g); err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

func (c *Console) jobgroupRemove(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	if err := c.jobs.RemoveGroup(x.ctx, id); err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

// jobgroupLoadByID answers the group, or {500,null,null} when unknown.
func (c *Console) jobgroupLoadByID(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	g, err := c.store.GroupLoad(x.ctx, id)
	if isNotFound(err) {
		failNull(x.w)
		return nil
	}
	if err != nil {
		return err
	}
	ok(x.w, toGroupJSON(g))
	return nil
}
