package lifecycle

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestOutageLogsOnce: a run of failures logs one error, the first success
// one recovery line; a failure caused by stopping logs nothing.
func TestOutageLogsOnce(t *testing.T) {
	var buf bytes.Buffer
	o := Outage{What: "probe", Log: zerolog.New(&buf)}
	ctx := context.Background()
	down := errors.New("connection refused")
	for _, err := range []error{nil, down, down, down, nil, nil} {
		o.Observe(ctx, err)
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	o.Observe(stopped, context.Canceled)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "connection refused") || !strings.Contains(lines[0], "probe failed") || !strings.Contains(lines[1], "probe recovered") {
		t.Fatalf("log lines:\n%s", buf.String())
	}
}
