package jobs

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf16"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// GlueVersionsKept is how many GLUE source versions a job keeps.
const GlueVersionsKept = 30

// ErrPermission is returned when the caller may not use the job's group;
// the console renders it as Java's permission exception.
var ErrPermission = errors.New("permission limit")

// SaveGlue stores new GLUE source for a job and records it as a version,
// keeping the newest 30 (console.md §6 /jobcode/save). Like Java it does
// not check the glue type, and does not strip "\r".
func (s *Service) SaveGlue(ctx context.Context, id int, source, remark *string, may MayUseGroup) error {
	if remark == nil {
		return s.refuse("system_please_input", "jobinfo_glue_remark")
	}
	if n := len(utf16.Encode([]rune(*remark))); n < 4 || n > 100 {
		return s.refuse("jobinfo_glue_remark_limit")
	}
	err := s.store.WithTx(ctx, func(tx *schema.Store) error {
		j, err := tx.JobLoad(ctx, id)
		if errors.Is(err, schema.ErrNotFound) {
			return s.refuse("jobinfo_glue_jobid_unvalid")
		}
		if err != nil {
			return err
		}
		if may != nil && !may(j.JobGroup) {
			return ErrPermission
		}
		now := s.now()
		j.GlueSource, j.GlueRemark, j.GlueUpdatetime, j.UpdateTime = source, remark, &now, &now
		if _, err := tx.JobUpdateGlue(ctx, j); err != nil {
			return err
		}
		glueType := j.GlueType
		if _, err := tx.GlueSave(ctx, schema.LogGlue{JobID: id, GlueType: &glueType, GlueSource: source,
			GlueRemark: *remark, AddTime: &now, UpdateTime: &now}); err != nil {
			return err
		}
		if _, err := tx.GlueRemoveOld(ctx, id, GlueVersionsKept); err != nil {
			return fmt.Errorf("keep %d glue versions of job %d: %w", GlueVersionsKept, id, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.log.Info().Int("job_id", id).Msg("glue source saved")
	return nil
}
