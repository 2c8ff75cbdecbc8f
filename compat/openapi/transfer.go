package openapi

import (
	"errors"
	"mime"
	"net/http"

	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// exportJobs answers the export document (core/transfer, version 1) of the
// groups the user may use, or of one app name.
func (a *API) exportJobs(c *call) error {
	doc, err := transfer.Export(c.ctx, a.cfg.Store, transfer.ExportOptions{AppName: c.r.URL.Query().Get("appname"),
		Access: c.access, Now: a.now().In(a.cfg.Loc), Workflows: a.cfg.Workflows != nil})
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, doc, nil)
	return nil
}

// importJobs applies an export document (admins only: it creates groups);
// mode merge (default) or overwrite, dryRun=true to only report.
func (a *API) importJobs(c *call) error {
	if err := c.requireAdmin(); err != nil {
		return err
	}
	q := c.r.URL.Query()
	mode := transfer.Merge
	if v := q.Get("mode"); v != "" {
		m, err := transfer.ParseMode(v)
		if err != nil {
			return invalid("%s", err.Error())
		}
		mode = m
	}
	dryRun := false
	switch q.Get("dryRun") {
	case "", "false":
	case "true":
		dryRun = true
	default:
		return invalid("dryRun: use true or false")
	}
	if ct := c.r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return &apiError{http.StatusUnsupportedMediaType, "unsupported_media_type", "send the document as application/json"}
		}
	}
	doc, err := transfer.Decode(c.r.Body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err
	}
	if err != nil {
		return invalid("%s", err.Error())
	}
	rep, err := transfer.Import(c.ctx, a.cfg.Jobs, doc, transfer.ImportOptions{Mode: mode, DryRun: dryRun, Access: c.access,
		Workflows: a.cfg.Workflows != nil, Now: a.now(), Loc: a.cfg.Loc})
	if err != nil {
		return err
	}
	a.log.Info().Str("mode", string(mode)).Bool("dry_run", dryRun).Int("changes", len(rep.Changes)).
		Str("username", c.access.User).Msg("jobs imported through the job API")
	writeData(c.w, http.StatusOK, rep, nil)
	return nil
}
