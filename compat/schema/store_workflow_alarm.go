package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// WorkflowAlarm is a row of WorkflowAlarmTable: the alarm of one failure
// of a run. Status takes xxl_job_log.alarm_status's values (0 to send, -1
// claimed, -2 sending, 2 sent, 3 failed); UpdateTime is when it last
// moved, by the clock of the admin that moved it.
type WorkflowAlarm struct {
	ID         int64
	RunID      int64
	Status     int
	UpdateTime time.Time
}

var workflowAlarmColumns = []string{"id", "run_id", "status", "update_time"}

func scanWorkflowAlarm(sc scanner) (WorkflowAlarm, error) {
	var a WorkflowAlarm
	var updated int64
	err := sc.Scan(&a.ID, &a.RunID, &a.Status, &updated)
	a.UpdateTime = fromMillis(updated)
	return a, err
}

// WorkflowAlarmAdd records that a run failed and must alarm; call it in
// the transaction that ends the run.
func (s *Store) WorkflowAlarmAdd(ctx context.Context, runID int64, now time.Time) error {
	if _, err := s.exec(ctx, s.sb.Insert(WorkflowAlarmTable).Columns(workflowAlarmColumns[1:]...).
		Values(runID, 0, millis(now))); err != nil {
		return fmt.Errorf("add alarm of workflow run %d: %w", runID, err)
	}
	return nil
}

// WorkflowAlarmsIn lists up to size alarms in one of statuses whose last
// move is at or before before (zero: any time), the oldest first.
func (s *Store) WorkflowAlarmsIn(ctx context.Context, statuses []int, before time.Time, size int) ([]WorkflowAlarm, error) {
	b := s.sb.Select(workflowAlarmColumns...).From(WorkflowAlarmTable).Where(sq.Eq{"status": statuses}).
		OrderBy("id").Limit(uint64(size))
	if !before.IsZero() {
		b = b.Where(sq.LtOrEq{"update_time": before.UnixMilli()})
	}
	rows, err := selectAll(ctx, s, b, scanWorkflowAlarm)
	if err != nil {
		return nil, fmt.Errorf("list workflow alarms: %w", err)
	}
	return rows, nil
}

// WorkflowAlarmMove moves an alarm from status from to to (a
// compare-and-set: false when another admin moved it first).
func (s *Store) WorkflowAlarmMove(ctx context.Context, id int64, from, to int, now time.Time) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update(WorkflowAlarmTable).Set("status", to).Set("update_time", millis(now)).
		Where(sq.Eq{"id": id, "status": from}))
	if err != nil {
		return false, fmt.Errorf("move workflow alarm %d from %d to %d: %w", id, from, to, err)
	}
	return n > 0, nil
}
