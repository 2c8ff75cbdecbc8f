package jobs

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// blank is Java's `s == null || s.trim().length() == 0`: trim() drops every
// char up to U+0020, not Unicode spaces.
func blank(s *string) bool {
	return s == nil || javaTrim(*s) == ""
}

func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// javaInt is Integer.valueOf: an optional sign, decimal digits, 32 bits.
func javaInt(s string) (int, bool) {
	n, err := cron.ParseFixRate(s) // the same Integer.valueOf rules
	return n, err == nil
}

// checkSchedule is the schedule part of add and update (console.md §5
// checks 4–6). A FIX_RATE job without conf is refused with the title alone
// on add and with the "illegal" suffix on update, as in Java.
func (s *Service) checkSchedule(j schema.JobInfo, update bool) error {
	if !knownScheduleType(j.ScheduleType) {
		return s.refuse("schedule_type", "system_unvalid")
	}
	switch j.ScheduleType {
	case cron.TypeCron:
		if j.ScheduleConf == nil || cron.Validate(*j.ScheduleConf) != nil {
			return &Refusal{Msg: "Cron" + s.texts.Text("system_unvalid")}
		}
	case cron.TypeFixRate:
		if j.ScheduleConf == nil {
			if update {
				return s.refuse("schedule_type", "system_unvalid")
			}
			return s.refuse("schedule_type")
		}
		if n, ok := javaInt(*j.ScheduleConf); !ok || n < 1 {
			return s.refuse("schedule_type", "system_unvalid")
		}
	}
	return nil
}

// checkStrategies is checks 10–12: route, misfire and block strategy.
func (s *Service) checkStrategies(j schema.JobInfo) error {
	if !knownRoute(str(j.ExecutorRouteStrategy)) {
		return s.refuse("jobinfo_field_executorRouteStrategy", "system_unvalid")
	}
	if !knownMisfire(j.MisfireStrategy) {
		return s.refuse("misfire_strategy", "system_unvalid")
	}
	if !knownBlock(str(j.ExecutorBlockStrategy)) {
		return s.refuse("jobinfo_field_executorBlockStrategy", "system_unvalid")
	}
	return nil
}

// checkChildren is check 13: every comma-separated child id must be a Java
// int naming an existing job of a group the caller may use. It returns the
// list re-joined with commas, which drops trailing empty items as Java's
// String.split does ("2,4," is stored as "2,4"). self is the id of the job
// being updated (0 on add): under Rules.SelfChild a job may not name
// itself, refused with the id as read ("05" shows as 5).
func (s *Service) checkChildren(ctx context.Context, tx *schema.Store, childIDs *string, self int, may MayUseGroup) (*string, error) {
	if blank(childIDs) {
		return childIDs, nil
	}
	items := javaSplit(*childIDs, ",")
	pattern := func(suffixKey string) string {
		return s.texts.Text("jobinfo_field_childJobId") + "({0})" + s.texts.Text(suffixKey)
	}
	for _, item := range items {
		id, ok := s.childID(item)
		if !ok {
			return nil, &Refusal{Msg: i18n.FormatPattern(pattern("system_unvalid"), item)}
		}
		if s.rules.SelfChild && id == self {
			return nil, &Refusal{Msg: i18n.FormatPattern(pattern("system_unvalid"), strconv.Itoa(id))}
		}
		child, err := tx.JobLoad(ctx, id)
		if errors.Is(err, schema.ErrNotFound) {
			return nil, &Refusal{Msg: i18n.FormatPattern(pattern("system_not_found"), item)}
		}
		if err != nil {
			return nil, err
		}
		if may != nil && !may(child.JobGroup) {
			return nil, &Refusal{Msg: i18n.FormatPattern(pattern("system_permission_limit"), item)}
		}
	}
	joined := strings.Join(items, ",")
	return &joined, nil
}

// childID reads one child id: Integer.valueOf under 2.4.2's rules; under
// Rules.ChildDigits only Unicode decimal digits. A digit string beyond the
// int range fails Java's parseInt with an exception there; it is refused
// as illegal here.
func (s *Service) childID(item string) (int, bool) {
	if javaTrim(item) == "" {
		return 0, false
	}
	if s.rules.ChildDigits && strings.IndexFunc(item, func(r rune) bool { return !unicode.IsDigit(r) }) >= 0 {
		return 0, false
	}
	return javaInt(item)
}

// javaSplit is String.split with a literal separator: trailing empty
// strings are removed (a string of separators only gives no items).
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// columnLimits are the widths of xxl_job_info's text columns, with the i18n
// title of each field. Java lets the database refuse a longer value (a
// driver error on MySQL, silently stored on SQLite); we refuse it up
// front, the same way on every backend.
var columnLimits = []struct {
	key   string
	max   int
	value func(j schema.JobInfo) *string
}{
	{"jobinfo_field_jobdesc", 255, func(j schema.JobInfo) *string { return &j.JobDesc }},
	{"jobinfo_field_author", 64, func(j schema.JobInfo) *string { return j.Author }},
	{"jobinfo_field_alarmemail", 255, func(j schema.JobInfo) *string { return j.AlarmEmail }},
	{"schedule_type", 128, func(j schema.JobInfo) *string { return j.ScheduleConf }},
	{"jobinfo_field_executorparam", 512, func(j schema.JobInfo) *string { return j.ExecutorParam }},
	{"jobinfo_field_childJobId", 255, func(j schema.JobInfo) *string { return j.ChildJobID }},
	{"jobinfo_glue_remark", 128, func(j schema.JobInfo) *string { return j.GlueRemark }},
}

// checkLengths refuses a value wider than its column: "<field>Length
// limit[0-<width>]" (the console's user checks use the same shape).
func (s *Service) checkLengths(j schema.JobInfo) error {
	if j.ExecutorHandler != nil && javaLen(*j.ExecutorHandler) > 255 {
		return &Refusal{Msg: "JobHandler" + s.texts.Text("system_lengh_limit") + "[0-255]"}
	}
	for _, c := range columnLimits {
		if v := c.value(j); v != nil && javaLen(*v) > c.max {
			return &Refusal{Msg: s.texts.Text(c.key) + s.texts.Text("system_lengh_limit") + "[0-" + strconv.Itoa(c.max) + "]"}
		}
	}
	return nil
}
