package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// Texts is the configured i18n bundle; refusals are written in it.
type Texts interface {
	Text(key string) string
}

// ErrNotFound is returned for an id that names no job (Java fails there
// with a NullPointerException; callers answer with a clean message).
var ErrNotFound = errors.New("job not found")

// ErrConflict marks a refusal caused by the state of what it acts on, not
// by the input alone (a group still used by jobs, a log whose trigger
// failed, a key already taken): the job API answers 409 for it.
var ErrConflict = errors.New("conflict")

// Refusal is an input the Java admin refuses with {"code":500,"msg":…}:
// Msg is that message, in the configured language. Err optionally
// classifies it (ErrNotFound, ErrConflict) for callers that answer with
// distinct statuses; the console shows Msg either way.
type Refusal struct {
	Msg string
	Err error
}

func (r *Refusal) Error() string { return r.Msg }

// Unwrap gives the classification, so errors.Is(err, ErrConflict) works.
func (r *Refusal) Unwrap() error { return r.Err }

// refuse is a Refusal whose message joins the texts of i18n keys without a
// separator, as Java concatenates them ("please input " + "Author").
func (s *Service) refuse(keys ...string) error {
	msg := ""
	for _, k := range keys {
		msg += s.texts.Text(k)
	}
	return &Refusal{Msg: msg}
}

// refuseAs is refuse with a classification.
func (s *Service) refuseAs(cause error, keys ...string) error {
	r := s.refuse(keys...).(*Refusal)
	r.Err = cause
	return r
}

// MayUseGroup tells whether the caller may use jobs of a group (the child
// job permission check); nil allows every group.
type MayUseGroup func(groupID int) bool

// Config wires a Service.
type Config struct {
	Store *schema.Store
	Texts Texts
	// Loc is the zone cron expressions are evaluated in (the admin's zone),
	// unless a job has a zone of its own (zone.go).
	Loc *time.Location
	// FixRate is how a FIX_RATE job's next time is computed (start, the
	// schedule preview): cron.FixRate242 (the zero value) or cron.FixRate342.
	FixRate cron.FixRate
	Now     func() time.Time // nil: time.Now
	// Rules are the checks of the Java admin owning the database (the zero
	// value: 2.4.2's); Texts may be that admin's bundle, 2.4.2's or 3.4.2's.
	Rules Rules
	Log   zerolog.Logger
}

// Service changes jobs; safe for concurrent use.
type Service struct {
	store   *schema.Store
	texts   Texts
	lang    string // the bundle's language, for the service's own texts
	rules   Rules
	loc     *time.Location
	zones   cron.Zones // the jobs' own time zones, loaded once each
	fixRate cron.FixRate
	now     func() time.Time
	log     zerolog.Logger
}

// New returns the service.
func New(cfg Config) *Service {
	s := &Service{store: cfg.Store, texts: keyedTexts{cfg.Texts}, lang: bundleLang(cfg.Texts), rules: cfg.Rules, loc: cfg.Loc, fixRate: cfg.FixRate,
		now: cfg.Now,
		log: cfg.Log.With().Str("component", "jobs").Logger()}
	if s.loc == nil {
		s.loc = time.Local
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// notFound maps the store's not-found to ErrNotFound, wrapping the rest.
func notFound(err error, id int) error {
	if errors.Is(err, schema.ErrNotFound) {
		return fmt.Errorf("job %d: %w", id, ErrNotFound)
	}
	return err
}

// lockAttempts bounds the retries of a schedule-lock transaction that lost
// a conflict (on Galera, a round on another node certified first).
const lockAttempts = 3

// underLock runs fn in a schedule-lock transaction. A transaction refused
// for a write conflict — on a multi-primary cluster, a schedule round on
// another node moved the same job first — is run again from the start (fn
// re-reads what it needs); on one server the lock serialises these writes
// and no conflict happens.
func (s *Service) underLock(ctx context.Context, fn func(tx *schema.Store) error) error {
	return retryConflicts(ctx, lockAttempts, func() error { return s.store.WithScheduleLock(ctx, fn) },
		func(attempt int) {
			s.log.Info().Int("attempt", attempt).Msg("job write lost a write conflict; running it again")
		})
}

// retryConflicts is schema.RetryConflicts (kept under this name for the
// service's tests).
func retryConflicts(ctx context.Context, attempts int, run func() error, again func(attempt int)) error {
	return schema.RetryConflicts(ctx, attempts, run, again)
}
