package jobs

import (
	"errors"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// A job's time zone (xxl_job_info.schedule_timezone) as the service takes
// it in a schema.JobInfo: nil leaves a stored job's zone as it is (an
// update from a form without the field) and is no zone on add; "" is the
// admin's zone (stored as NULL); anything else must be an IANA id
// cron.CheckZoneID accepts, stored as given. Only CRON jobs are computed
// in it; the other types keep it for a later switch to CRON.

// zoneName is the zone a stored or given value names: "" for the admin's.
func zoneName(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// storedZone is the column value for a zone: NULL for the admin's.
func storedZone(p *string) *string {
	if zoneName(p) == "" {
		return nil
	}
	return p
}

// checkZone refuses a zone that is not an IANA id, or any zone where the
// database has no column to keep it.
func (s *Service) checkZone(tx *schema.Store, zone *string) error {
	id := zoneName(zone)
	if id == "" {
		return nil
	}
	if !tx.HasScheduleTimezone() {
		return &Refusal{Msg: s.zoneText(zoneNoColumn)}
	}
	if err := cron.CheckZoneID(id); err != nil {
		return s.zoneRefusal(err)
	}
	return nil
}

// zoneRefusal is "<Time Zone><illegal>" as the Java messages are built,
// with the id; in English with the reason too (cron's reasons are English).
func (s *Service) zoneRefusal(err error) error {
	msg := s.zoneText(zoneTitle) + s.texts.Text("system_unvalid")
	var ze *cron.ZoneError
	if errors.As(err, &ze) {
		if s.lang == "en" {
			msg += ": " + ze.Reason
		}
		msg += " [" + ze.Zone + "]"
	}
	return &Refusal{Msg: msg}
}

// locOf is the zone a job's next fire times are computed in: its own for
// a CRON job that has one, else the admin's.
func (s *Service) locOf(scheduleType string, zone *string) (*time.Location, error) {
	if scheduleType != cron.TypeCron {
		return s.loc, nil
	}
	return s.zones.Load(zoneName(zone), s.loc)
}

// nextIn is the job's next fire time after from, in its zone.
func (s *Service) nextIn(j schema.JobInfo, from time.Time) (time.Time, bool) {
	loc, err := s.locOf(j.ScheduleType, j.ScheduleTimezone)
	if err != nil {
		return time.Time{}, false
	}
	t, ok, err := cron.NextTimeWith(s.fixRate, j.ScheduleType, str(j.ScheduleConf), from, loc)
	return t, err == nil && ok
}

// The service's own texts: the Java bundles have no word for a job's time
// zone. Each is given in the three languages of the bundles.
const (
	zoneTitle = iota
	zoneNoColumn
)

var zoneTexts = map[string][2]string{
	"en": {"Time Zone",
		"Time Zone: this database has no xxl_job_info.schedule_timezone column; add it first (docs/job-time-zones.md)"},
	"zh_CN": {"时区",
		"时区：数据库的 xxl_job_info 表没有 schedule_timezone 列，请先添加（见 docs/job-time-zones.md）"},
	"zh_TC": {"時區",
		"時區：資料庫的 xxl_job_info 表沒有 schedule_timezone 欄位，請先新增（見 docs/job-time-zones.md）"},
}

// zoneText is one of the texts above in the language of the service's
// bundle.
func (s *Service) zoneText(which int) string {
	t, ok := zoneTexts[s.lang]
	if !ok {
		t = zoneTexts["zh_CN"]
	}
	return t[which]
}

// bundleLang is the language of a bundle that says it (i18n.Bundle does),
// else zh_CN, the Java admins' default.
func bundleLang(t Texts) string {
	if l, ok := t.(interface{ Lang() string }); ok {
		return l.Lang()
	}
	return "zh_CN"
}
