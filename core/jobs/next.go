package jobs

import (
	"errors"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// NextTriggerTimes is the console's schedule preview: up to n successive
// fire times from now, each after the previous (console.md §5
// nextTriggerTime). NONE and unknown types give none; an invalid conf is
// refused with the schedule-type title, "illegal" and the Java exception
// message, e.g. "Schedule TypeillegalFor input string: \"abc\"".
func (s *Service) NextTriggerTimes(scheduleType, scheduleConf string, n int) ([]time.Time, error) {
	out := []time.Time{}
	from := s.now()
	for range n {
		t, ok, err := cron.NextTimeWith(s.fixRate, scheduleType, scheduleConf, from, s.loc)
		if err != nil {
			return nil, &Refusal{Msg: s.texts.Text("schedule_type") + s.texts.Text("system_unvalid") + javaMessage(err)}
		}
		if !ok {
			break
		}
		out = append(out, t)
		from = t
	}
	return out, nil
}

// javaMessage is the message of the Java exception behind a cron error.
func javaMessage(err error) string {
	var pe *cron.ParseError
	if errors.As(err, &pe) {
		return pe.Message
	}
	var fe *cron.FixRateError
	if errors.As(err, &fe) {
		return fe.Error()
	}
	return err.Error()
}
