package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// ForeignZoneWrite is a running CRON job with a time zone of its own whose
// stored next fire time is a fire time of its expression in the admin's
// zone but not in the job's. This admin computes every next time of such
// a job in the job's zone; a Java admin (up to 3.4.2) ignores
// schedule_timezone and computes it in its own default zone, so the row
// shows that one wrote it — and fires the job at that instant.
type ForeignZoneWrite struct {
	JobID int
	Zone  string    // the job's zone
	Next  time.Time // the stored trigger_next_time, in the admin's zone
}

func (f ForeignZoneWrite) String() string {
	return fmt.Sprintf("job %d (%s) next fire %s", f.JobID, f.Zone, f.Next.Format("2006-01-02 15:04:05 MST"))
}

// ForeignZoneWrites lists the zoned jobs whose stored next fire time only
// an admin ignoring their zone writes (see ForeignZoneWrite). It assumes
// that admin runs in this admin's zone (a mixed deployment shares its
// settings); a Java admin in another zone, or a job whose expression
// gives the same instants in both zones (every minute, every hour where
// the offsets differ by whole hours), leaves no such trace. A zone set by
// hand in the database on a running job also looks like one until the
// job's next fire: set zones through the console or the job API.
func (s *Service) ForeignZoneWrites(ctx context.Context) ([]ForeignZoneWrite, error) {
	zoned, err := s.store.JobsZoned(ctx)
	if err != nil {
		return nil, err
	}
	var out []ForeignZoneWrite
	for _, j := range zoned {
		if j.TriggerNextTime <= 0 || j.TriggerNextTime%1000 != 0 {
			continue // not a cron fire time in any zone
		}
		own, err := s.zones.Load(j.Zone, s.loc)
		if err != nil || own.String() == s.loc.String() {
			continue
		}
		next := time.UnixMilli(j.TriggerNextTime)
		if !isFireTime(j.ScheduleConf, next, own) && isFireTime(j.ScheduleConf, next, s.loc) {
			out = append(out, ForeignZoneWrite{JobID: j.ID, Zone: j.Zone, Next: next.In(s.loc)})
		}
	}
	return out, nil
}

// isFireTime tells whether t is a fire time of the cron expression in loc:
// the first fire after the second before it.
func isFireTime(expr string, t time.Time, loc *time.Location) bool {
	next, ok, err := cron.NextTimeWith(cron.FixRate242, cron.TypeCron, expr, t.Add(-time.Second), loc)
	return err == nil && ok && next.Equal(t)
}
