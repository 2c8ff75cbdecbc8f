package console

// The 3.4.2 admin-only pages (@XxlSso(role = ADMIN)): the executor list,
// whose model is empty, and the user list with every group for the
// permission boxes of its forms.

func (c *Console) jobgroupPage34(x *exchange) error {
	c.render(x, c.page(x, "jobgroup", nil))
	return nil
}

func (c *Console) userPage34(x *exchange) error {
	groups, err := c.store.GroupFindAll(x.ctx)
	if err != nil {
		return err
	}
	c.render(x, c.page(x, "user", UserData{Groups: groupOptions(groups)}))
	return nil
}
