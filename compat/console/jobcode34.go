package console

// The 3.4.2 JobCodeController's JSON endpoint, /jobcode/save. Where 3.4.2
// differs from 2.4.2: all three parameters are required, a blank source
// is refused first and a remark with XSS patterns after its length (the
// service's Rules342), the Response envelope.

func (c *Console) jobcodeSave34(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	source, err := x.form.reqString("glueSource")
	if err != nil {
		return err
	}
	remark, err := x.form.reqString("glueRemark")
	if err != nil {
		return err
	}
	if err := c.jobs.SaveGlue(x.ctx, id, &source, &remark, mayUse34Of(x.user)); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}
