package app

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// newLogger writes human-readable lines on a terminal and JSON otherwise
// (log shippers), at the level of logging.level.root.
func newLogger(w io.Writer, level string) zerolog.Logger {
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05.000"}
	}
	lvl := map[string]zerolog.Level{
		"trace": zerolog.TraceLevel, "debug": zerolog.DebugLevel, "info": zerolog.InfoLevel,
		"warn": zerolog.WarnLevel, "error": zerolog.ErrorLevel, "off": zerolog.Disabled,
	}[level]
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}
