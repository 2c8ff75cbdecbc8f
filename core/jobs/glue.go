package jobs

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf16"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// GlueVersionsKept is how many GLUE source versions a job keeps.
const GlueVersionsKept = 30

// ErrPermission is returned when the caller may not use the job's group;
// the console renders it as Java's permission exception.
var ErrPermission = errors.New("permission limit")

// SaveGlue stores new GLUE source for a job and records it as a version,
// keeping the newest 30 (console.md §6 /jobcode/save). Like Java it does
// not check the glue type, and does not strip "\r". Under Rules.GlueChecks
// (3.4.2) a blank source is refused first, and a remark with XSS patterns
// after its length check.
func (s *Service) SaveGlue(ctx context.Context, id int, source, remark *string, may MayUseGroup) error {
	if s.rules.GlueChecks && blank(source) {
		return s.refuse("system_please_input", "jobinfo_glue_source")
	}
	if err := s.checkGlueRemark(remark); err != nil {
		return err
	}
	if s.rules.GlueChecks && hasXSS(*remark) {
		return s.refuse("jobinfo_glue_remark", "system_unvalid")
	}
	err := s.store.WithTx(ctx, func(tx *schema.Store) error {
		j, err := tx.JobLoad(ctx, id)
		if errors.Is(err, schema.ErrNotFound) {
			return s.refuseAs(ErrNotFound, "jobinfo_glue_jobid_unvalid")
		}
		if err != nil {
			return err
		}
		if may != nil && !may(j.JobGroup) {
			return ErrPermission
		}
		return s.saveGlue(ctx, tx, j, source, *remark)
	})
	if err != nil {
		return err
	}
	s.audit(ctx, ActionGlueUpdate, id, func(e *zerolog.Event) {
		e.Str("glueRemark", str(remark)).Str("glueSource", loglimit.Cut(str(source)))
	})
	return nil
}

// checkGlueRemark is /jobcode/save's remark check: present, 4–100 chars.
func (s *Service) checkGlueRemark(remark *string) error {
	if remark == nil {
		return s.refuse("system_please_input", "jobinfo_glue_remark")
	}
	if n := len(utf16.Encode([]rune(*remark))); n < 4 || n > 100 {
		return s.refuse("jobinfo_glue_remark_limit")
	}
	return nil
}

// saveGlue writes j's new GLUE source and its version row in the caller's
// transaction, keeping the newest GlueVersionsKept versions.
func (s *Service) saveGlue(ctx context.Context, tx *schema.Store, j schema.JobInfo, source *string, remark string) error {
	now := s.now()
	j.GlueSource, j.GlueRemark, j.GlueUpdatetime, j.UpdateTime = source, &remark, &now, &now
	if _, err := tx.JobUpdateGlue(ctx, j); err != nil {
		return err
	}
	glueType := j.GlueType
	if _, err := tx.GlueSave(ctx, schema.LogGlue{JobID: j.ID, GlueType: &glueType, GlueSource: source,
		GlueRemark: remark, AddTime: &now, UpdateTime: &now}); err != nil {
		return err
	}
	if _, err := tx.GlueRemoveOld(ctx, j.ID, GlueVersionsKept); err != nil {
		return fmt.Errorf("keep %d glue versions of job %d: %w", GlueVersionsKept, j.ID, err)
	}
	return nil
}
