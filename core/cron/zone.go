package cron

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// MaxZoneLen is the width of xxl_job_info.schedule_timezone (VARCHAR(64));
// the longest IANA id today has 32 characters.
const MaxZoneLen = 64

// ZoneError is a job time zone that is not an IANA id both this admin and
// Java's ZoneId.of accept.
type ZoneError struct {
	Zone   string
	Reason string
}

func (e *ZoneError) Error() string { return fmt.Sprintf("time zone %q: %s", e.Zone, e.Reason) }

// notJavaZones are names Go's time.LoadLocation accepts that are no IANA
// region id a Java admin could read back: Go's own "Local", files of the
// zoneinfo tree that are not zones, and the three legacy abbreviations
// that java.time.ZoneId.of refuses (java.util.TimeZone maps them to fixed
// offsets, so the two Java APIs would disagree on them).
var notJavaZones = map[string]bool{
	"Local": true, "localtime": true, "posixrules": true, "Factory": true,
	"EST": true, "MST": true, "HST": true,
}

// CheckZoneID tells whether id is a time zone a job may carry: an IANA id
// (Area/Location, a link such as US/Eastern, or one of UTC, GMT, Etc/…,
// CET and the like) of at most MaxZoneLen characters, spelled exactly as
// the tz database spells it, that the tz database of this process knows.
// The empty id (the admin's own zone) is not checked here.
func CheckZoneID(id string) error {
	switch {
	case len(id) > MaxZoneLen:
		return &ZoneError{Zone: id, Reason: fmt.Sprintf("longer than %d characters", MaxZoneLen)}
	case !zoneSyntax(id):
		return &ZoneError{Zone: id, Reason: "not an IANA time zone id (like America/New_York or Europe/Berlin)"}
	case notJavaZones[id]:
		return &ZoneError{Zone: id, Reason: "not an IANA region id (use a name like America/New_York)"}
	}
	if _, err := time.LoadLocation(id); err != nil {
		return &ZoneError{Zone: id, Reason: "unknown to the tz database"}
	}
	return nil
}

// zoneSyntax accepts what tz database names are made of: parts of ASCII
// letters, digits, '_', '+' and '-' joined by '/', each part starting
// with a letter (Etc/GMT+5, America/Port-au-Prince, America/Argentina/
// Buenos_Aires). It keeps paths ("..", absolute names) and blanks away
// from the zoneinfo lookup.
func zoneSyntax(id string) bool {
	if id == "" {
		return false
	}
	start := true
	for i := 0; i < len(id); i++ {
		c := id[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		switch {
		case start && !letter:
			return false
		case c == '/':
			start = true
			continue
		case !letter && !(c >= '0' && c <= '9') && c != '_' && c != '+' && c != '-':
			return false
		}
		start = false
	}
	return !start
}

// ErrNoZone is returned by Zones.Load for an id CheckZoneID refuses.
var ErrNoZone = errors.New("invalid job time zone")

// Zones loads job time zones, each once: time.LoadLocation reads and
// parses the zone's file at every call, which a schedule round would do
// per fire. The zero value is ready; safe for concurrent use.
type Zones struct {
	mu    sync.RWMutex
	cache map[string]zoneEntry
}

type zoneEntry struct {
	loc *time.Location
	err error
}

// maxCachedZones bounds the cache (the tz database has about 600 names;
// refusals of arbitrary stored text are cached too).
const maxCachedZones = 1024

// Load is the zone named id; the empty id is def, the admin's own zone. An
// id CheckZoneID refuses is an error wrapping ErrNoZone.
func (z *Zones) Load(id string, def *time.Location) (*time.Location, error) {
	if id == "" {
		return def, nil
	}
	z.mu.RLock()
	e, ok := z.cache[id]
	z.mu.RUnlock()
	if ok {
		return e.loc, e.err
	}
	if err := CheckZoneID(id); err != nil {
		e.err = fmt.Errorf("%w: %w", ErrNoZone, err)
	} else if e.loc, err = time.LoadLocation(id); err != nil {
		e.err = fmt.Errorf("%w: %w", ErrNoZone, err)
	}
	z.mu.Lock()
	if z.cache == nil || len(z.cache) >= maxCachedZones {
		z.cache = make(map[string]zoneEntry)
	}
	z.cache[id] = e
	z.mu.Unlock()
	return e.loc, e.err
}
