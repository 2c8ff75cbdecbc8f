package console

import (
	"errors"
	"net/http"

	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// Export and import of the job list (new: the Java console has neither).
// The document is core/transfer's version-1 format, the one `xxl-admin-go
// jobs export|import` and the job API use.
//
// GET|POST <ctx>/jobinfo/export[?jobGroup=ID] (any user) answers the
// document of the groups the user may use, or of one group, as a file
// download (Content-Disposition: attachment). A group the user may not use
// is the console's permission error.
//
// POST <ctx>/jobinfo/import?mode=merge|overwrite&dryRun=true|false (admins)
// takes the document as the request body (Content-Type: application/json)
// and answers the console's ReturnT: {"code":200,"msg":null,"content":
// {"mode","dryRun","changes":[{"kind":"group"|"job","name","outcome":
// "created"|"updated"|"unchanged"|"kept","id","fields":[…]}]}}, or
// {"code":500,"msg":"job 2 (app / handler / \"desc\"): Cronillegal"} when
// the document is refused (nothing is written then).
//
// On a 3.x database the same two are at <ctx>/xxl-admin-go/jobinfo/export
// and …/import (routes34.go says why) and answer in the 3.4.2 console's
// Response envelope ({"code","data","msg","success"}, data where ReturnT
// has content).

// transferOK and transferFail answer in the envelope of the console's
// generation.
func (c *Console) transferOK(w http.ResponseWriter, data any) {
	if c.gen3 {
		ok34(w, data)
		return
	}
	ok(w, data)
}

func (c *Console) transferFail(w http.ResponseWriter, msg string) {
	if c.gen3 {
		fail34(w, msg)
		return
	}
	fail(w, msg)
}

// exportFileName is the download's name, dated in the admin's zone.
func (c *Console) exportFileName() string {
	return "xxl-job-jobs-" + c.now().In(c.cfg.Loc).Format("20060102-150405") + ".json"
}

func (c *Console) jobinfoExport(x *exchange) error {
	group, err := x.form.intOr("jobGroup", 0)
	if err != nil {
		return err
	}
	// With workflows on, a group's workflows travel with its jobs, as in
	// `jobs export` and the job API.
	opt := transfer.ExportOptions{Access: jobs.AccessOf(*x.user), Now: c.now().In(c.cfg.Loc), Workflows: c.cfg.Workflows != nil}
	if group > 0 {
		if err := c.checkGroupTrimmed(x.user, group); err != nil {
			return err
		}
		g, err := c.store.GroupLoad(x.ctx, group)
		if isNotFound(err) {
			invalid := "system_unvalid"
			if c.gen3 {
				invalid = "system_invalid" // the 3.4.2 bundle's spelling
			}
			c.transferFail(x.w, c.text("jobinfo_field_jobgroup")+c.text(invalid))
			return nil
		}
		if err != nil {
			return err
		}
		opt.AppName = g.AppName
	}
	doc, err := transfer.Export(x.ctx, c.store, opt)
	if err != nil {
		return err
	}
	x.w.Header().Set("Content-Disposition", `attachment; filename="`+c.exportFileName()+`"`)
	x.w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	x.w.Header().Set("Cache-Control", "no-store")
	return transfer.Encode(x.w, doc)
}

func (c *Console) jobinfoImport(x *exchange) error {
	mode, err := transfer.ParseMode(x.form.text("mode"))
	if x.form.str("mode") == nil {
		mode, err = transfer.Merge, nil
	}
	if err != nil {
		c.transferFail(x.w, err.Error())
		return nil
	}
	dryRun := x.form.text("dryRun") == "true"
	doc, err := transfer.Decode(http.MaxBytesReader(x.w, x.r.Body, 64<<20))
	if err != nil {
		c.transferFail(x.w, err.Error())
		return nil
	}
	rep, err := transfer.Import(x.ctx, c.jobs, doc, transfer.ImportOptions{Mode: mode, DryRun: dryRun, Access: jobs.AccessOf(*x.user),
		Workflows: c.cfg.Workflows != nil, Now: c.now(), Loc: c.cfg.Loc})
	var (
		refusal *jobs.Refusal
		item    *transfer.ItemError
	)
	if errors.As(err, &item) || errors.As(err, &refusal) {
		c.transferFail(x.w, err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	c.log.Info().Str("mode", string(mode)).Bool("dry_run", dryRun).Int("changes", len(rep.Changes)).
		Str("username", x.user.Username).Msg("jobs imported from the console")
	c.transferOK(x.w, rep)
	return nil
}
