package console

import (
	"time"
)

// Per-job time zones (docs/job-time-zones.md; new, no Java console has
// them). Where the database has xxl_job_info.schedule_timezone, both job
// pages show a time zone field in the add, edit and copy form (empty: the
// admin's zone), add and update take scheduleTimezone (left out: the
// job's zone is kept), the job list carries a job's zone, and the next
// trigger times are computed and shown in the zone the page sends.

// ZoneChoice is the form's time zone field: AdminZone names the admin's
// own zone, the field's default, as its abbreviation and offset now.
type ZoneChoice struct {
	AdminZone string `json:"adminZone"`
}

// zoneChoice is the field where the database keeps zones, else nil.
func (c *Console) zoneChoice() *ZoneChoice {
	if !c.store.HasScheduleTimezone() {
		return nil
	}
	return &ZoneChoice{AdminZone: c.cfg.Now().In(c.cfg.Loc).Format("MST -07:00")}
}

// nextTimes are the 5 next fire times the preview shows: in the admin's
// zone as Java writes them (yyyy-MM-dd HH:mm:ss) for a job without a zone,
// in the job's zone with its abbreviation for one with a zone.
func (c *Console) nextTimes(scheduleType, scheduleConf, zone string) ([]string, error) {
	times, err := c.jobs.NextTriggerTimesIn(scheduleType, scheduleConf, zone, 5)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(times))
	for _, t := range times {
		if zone == "" {
			out = append(out, t.In(c.cfg.Loc).Format(time.DateTime))
			continue
		}
		out = append(out, t.Format(time.DateTime+" MST"))
	}
	return out, nil
}
