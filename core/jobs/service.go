package jobs

import (
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
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
	// Loc is the zone cron expressions are evaluated in (the admin's zone).
	Loc *time.Location
	Now func() time.Time // nil: time.Now
	Log zerolog.Logger
}

// Service changes jobs; safe for concurrent use.
type Service struct {
	store *schema.Store
	texts Texts
	loc   *time.Location
	now   func() time.Time
	log   zerolog.Logger
}

// New returns the service.
func New(cfg Config) *Service {
	s := &Service{store: cfg.Store, texts: cfg.Texts, loc: cfg.Loc, now: cfg.Now,
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
