package cron

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// maxCLICount keeps a typo in --count from printing forever.
const maxCLICount = 10000

// cliResult is the single JSON object the cron subcommand prints.
type cliResult struct {
	Expr   string  `json:"expr"`
	Valid  bool    `json:"valid"`
	Error  string  `json:"error"`
	NextMs []int64 `json:"next_ms"`
}

// RunCLI implements the operator subcommand
//
//	xxl-admin-go cron [--tz ZONE] [--from RFC3339] [--count N] 'EXPR'
//
// args are the arguments after "cron". It prints one JSON object
// {"expr","valid","error","next_ms"} to stdout, where next_ms lists up to N
// successive fire times (epoch ms) strictly after --from, each after the
// previous one. Exit status: 0 valid, 1 invalid expression, 2 usage error.
func RunCLI(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cron", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tz := fs.String("tz", "", "IANA time zone to evaluate in (default: local zone)")
	fromText := fs.String("from", "", "start instant, RFC 3339 (default: now)")
	count := fs.Int("count", 10, "number of fire times to list")
	fs.Usage = func() {
		_, _ = fmt.Fprintln(stderr, "usage: xxl-admin-go cron [--tz ZONE] [--from RFC3339] [--count N] 'EXPR'")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usageErr := func(format string, a ...any) int {
		_, _ = fmt.Fprintf(stderr, "cron: "+format+"\n", a...)
		fs.Usage()
		return 2
	}
	if fs.NArg() != 1 {
		return usageErr("expected exactly one expression argument, got %d", fs.NArg())
	}
	if *count < 0 || *count > maxCLICount {
		return usageErr("--count must be between 0 and %d", maxCLICount)
	}
	loc := time.Local
	if *tz != "" {
		var err error
		if loc, err = time.LoadLocation(*tz); err != nil {
			return usageErr("--tz: %v", err)
		}
	}
	from := time.Now()
	if *fromText != "" {
		var err error
		if from, err = time.Parse(time.RFC3339Nano, *fromText); err != nil {
			return usageErr("--from: %v", err)
		}
	}

	res := evaluateForCLI(fs.Arg(0), from, loc, *count)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false) // expressions are shown as typed
	if err := enc.Encode(res); err != nil {
		_, _ = fmt.Fprintf(stderr, "cron: write result: %v\n", err)
		return 2
	}
	if !res.Valid {
		return 1
	}
	return 0
}

func evaluateForCLI(expr string, from time.Time, loc *time.Location, count int) cliResult {
	res := cliResult{Expr: expr, NextMs: []int64{}}
	e, err := Parse(expr)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Valid = true
	for range count {
		next, ok := e.Next(from, loc)
		if !ok {
			break
		}
		res.NextMs = append(res.NextMs, next.UnixMilli())
		from = next
	}
	return res
}
