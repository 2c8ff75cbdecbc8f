package schema

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
)

// GlueSave is xxl_job_logglue save; returns the generated id.
func (s *Store) GlueSave(ctx context.Context, g LogGlue) (int, error) {
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert("xxl_job_logglue").
		Columns("job_id", "glue_type", "glue_source", "glue_remark", "add_time", "update_time").
		Values(g.JobID, g.GlueType, g.GlueSource, g.GlueRemark, s.dbTimePtr(g.AddTime), s.dbTimePtr(g.UpdateTime)))
	if err != nil {
		return 0, fmt.Errorf("save glue of job %d: %w", g.JobID, err)
	}
	return int(id), nil
}

// GlueFindByJob is findByJobId (newest first).
func (s *Store) GlueFindByJob(ctx context.Context, jobID int) ([]LogGlue, error) {
	out, err := selectAll(ctx, s, s.sb.Select("id", "job_id", "glue_type", "glue_source", "glue_remark", "add_time", "update_time").
		From("xxl_job_logglue").Where(sq.Eq{"job_id": jobID}).OrderBy("id DESC"), func(sc scanner) (LogGlue, error) {
		var g LogGlue
		err := sc.Scan(&g.ID, &g.JobID, &g.GlueType, &g.GlueSource, &g.GlueRemark, s.scanTime(&g.AddTime), s.scanTime(&g.UpdateTime))
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("glue history of job %d: %w", jobID, err)
	}
	return out, nil
}

// GlueRemoveOld is removeOld: keep the newest keep versions of a job.
func (s *Store) GlueRemoveOld(ctx context.Context, jobID, keep int) (int64, error) {
	newest := page(s.sb.Select("id").From("xxl_job_logglue").Where(sq.Eq{"job_id": jobID}).OrderBy("update_time DESC", "id DESC"), 0, keep)
	newestSQL, newestArgs, err := newest.ToSql()
	if err != nil {
		return 0, err
	}
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_logglue").
		Where(sq.Expr("id NOT IN (SELECT id FROM ("+newestSQL+") t1)", newestArgs...)).
		Where(sq.Eq{"job_id": jobID}))
	if err != nil {
		return 0, fmt.Errorf("remove old glue of job %d: %w", jobID, err)
	}
	return n, nil
}

// GlueDeleteByJob is deleteByJobId.
func (s *Store) GlueDeleteByJob(ctx context.Context, jobID int) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_logglue").Where(sq.Eq{"job_id": jobID}))
	if err != nil {
		return 0, fmt.Errorf("delete glue of job %d: %w", jobID, err)
	}
	return n, nil
}
