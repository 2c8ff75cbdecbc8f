package console

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The JSON endpoints of the 3.4.2 JobGroupController: pageList, insert,
// update and delete for admins; loadById for every user since 3.3.2 (the
// job list shows a job's registered executors). Where 3.4.2 differs from
// 2.4.2: the Response envelope and PageModel, save/remove renamed
// insert/delete, delete takes "ids[]" (exactly one), answers success for an
// unknown group and removes the group's registrations; the group checks
// are the service's Rules342 (XssUtil patterns, http(s) addresses).

func (c *Console) jobgroupPageList34(x *exchange) error {
	offset, err := x.form.intOr("offset", 0)
	if err != nil {
		return err
	}
	pagesize, err := x.form.intOr("pagesize", 10)
	if err != nil {
		return err
	}
	f := schema.GroupFilter{AppName: deref(x.form.joined("appname")), Title: deref(x.form.joined("title"))}
	list, total, err := c.store.GroupPageList(x.ctx, offset, pagesize, f)
	if err != nil {
		return err
	}
	rows := make([]groupJSON, 0, len(list))
	for _, g := range list {
		rows = append(rows, toGroupJSON34(g))
	}
	okPage34(x.w, rows, total)
	return nil
}

// groupForm34 binds the XxlJobGroup bean: int properties present must
// convert, even empty (400).
func groupForm34(f form) (schema.Group, error) {
	id, err := f.beanInt("id")
	if err != nil {
		return schema.Group{}, err
	}
	addressType, err := f.beanInt("addressType")
	if err != nil {
		return schema.Group{}, err
	}
	return schema.Group{ID: id, AppName: deref(f.joined("appname")), Title: deref(f.joined("title")),
		AddressType: addressType, AddressList: f.joined("addressList")}, nil
}

func (c *Console) jobgroupInsert34(x *exchange) error {
	g, err := groupForm34(x.form)
	if err != nil {
		return err
	}
	if _, err := c.jobs.AddGroup(x.ctx, g); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}

func (c *Console) jobgroupUpdate34(x *exchange) error {
	g, err := groupForm34(x.form)
	if err != nil {
		return err
	}
	if err := c.jobs.UpdateGroup(x.ctx, g); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}

func (c *Console) jobgroupDelete34(x *exchange) error {
	id, one, err := x.form.oneID("ids[]")
	if err != nil {
		return err
	}
	if !one {
		fail34(x.w, c.pleaseChooseOne())
		return nil
	}
	if err := c.jobs.RemoveGroup(x.ctx, id); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}

// jobgroupLoadByID34 answers a group, or Response.ofFail() ("Fail") when
// unknown, to every logged-in user: 3.3.2 opened it so that normal users
// see the registry nodes of a job's executor (PR-3882). It shows app name,
// title and addresses; the executors behind them still want the access
// token.
func (c *Console) jobgroupLoadByID34(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	g, err := c.store.GroupLoad(x.ctx, id)
	if isNotFound(err) {
		fail34(x.w, "Fail")
		return nil
	}
	if err != nil {
		return err
	}
	ok34(x.w, toGroupJSON34(g))
	return nil
}
