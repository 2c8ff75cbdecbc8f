package cron

import (
	"errors"
	"strings"
	"time"
)

// field indexes the seven cron fields in text order.
type field int

const (
	fieldSecond field = iota
	fieldMinute
	fieldHour
	fieldDayOfMonth
	fieldMonth
	fieldDayOfWeek
	fieldYear
	fieldCount
)

// Marker values the Java class stores inside the value sets: '*' adds
// allSpec next to the expanded values, '?' stores noSpec. Because they are
// ordinary integers, the literal numbers 98 and 99 behave like the markers
// in some fields; the parser keeps that.
const (
	allSpec = 99
	noSpec  = 98
)

// yearHorizon is how far past the current year the year field may reach
// (MAX_YEAR = current year + 100 in the Java class).
const yearHorizon = 100

// Expression is a parsed cron expression. It is immutable and safe for
// concurrent use.
type Expression struct {
	text string

	sets [fieldCount]intSet

	lastDayOfWeek  bool // "nL" in day-of-week
	nthDayOfWeek   int  // "n#k" in day-of-week (k), 0 when unused
	lastDayOfMonth bool // "L" in day-of-month
	nearestWeekday bool // "W" in day-of-month
	lastDayOffset  int  // "L-n" in day-of-month

	maxYear int
}

// ParseError is a rejected expression. Message is the text the Java class
// puts into its ParseException (the console shows it in some answers).
type ParseError struct {
	Message string
}

func (e *ParseError) Error() string { return e.Message }

// Parse parses expr with the year limit taken from the current year.
func Parse(expr string) (*Expression, error) {
	return parseWithMaxYear(expr, time.Now().Year()+yearHorizon)
}

// Validate reports whether expr is accepted, as the admin's add/update
// check does (scheduler.md §2.1: "can it be parsed").
func Validate(expr string) error {
	_, err := Parse(expr)
	return err
}

// String returns the expression as parsed (upper-cased, like the Java class).
func (e *Expression) String() string { return e.text }

func parseWithMaxYear(expr string, maxYear int) (*Expression, error) {
	e := &Expression{text: strings.ToUpper(expr), maxYear: maxYear}
	if err := e.build(); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, pe
		}
		// Anything else mirrors a Java runtime exception escaping the parser,
		// which the class rewraps with this wording.
		return nil, &ParseError{Message: "Illegal cron expression format (" + err.Error() + ")"}
	}
	return e, nil
}

func parseErrorf(msg string) error { return &ParseError{Message: msg} }
