package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// runExport writes the document to stdout, or to p.out once complete (a
// failed export leaves no half-written file).
func runExport(ctx context.Context, p jobsArgs, store *schema.Store, operator jobs.Access, workflows bool, stdout io.Writer) error {
	doc, err := transfer.Export(ctx, store, transfer.ExportOptions{AppName: p.group, Access: operator, Now: time.Now(),
		Workflows: workflows})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := transfer.Encode(&b, doc); err != nil {
		return err
	}
	if p.out == "" {
		_, err = stdout.Write(b.Bytes())
		return err
	}
	tmp := p.out + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p.out)
}

// runImport applies the document and prints one line per group and job.
// On a terminal it shows how far it is while it runs; the log gets a
// summary line (logImport).
func runImport(ctx context.Context, p jobsArgs, svc *jobs.Service, operator jobs.Access, workflows bool, stdin io.Reader, stdout io.Writer, terminal bool, log zerolog.Logger) error {
	in := stdin
	if p.file != "-" {
		f, err := os.Open(p.file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	doc, err := transfer.Decode(in)
	if err != nil {
		return err
	}
	began := time.Now()
	line := newProgressLine(stdout, terminal, time.Second, time.Now)
	rep, err := transfer.Import(ctx, svc, doc, transfer.ImportOptions{Mode: p.mode, DryRun: p.dryRun, Access: operator,
		Workflows: workflows, Now: began, Loc: time.Local, Progress: importProgress(line, began)})
	line.Clear()
	if err != nil {
		return err
	}
	logImport(log, rep, time.Since(began))
	printReport(stdout, rep)
	return nil
}

// printReport writes what an import did (or would do), then a summary.
func printReport(w io.Writer, rep transfer.Report) {
	if rep.DryRun {
		fmt.Fprintf(w, "dry run, mode %s: nothing was written\n", rep.Mode)
	}
	counts := map[string]map[jobs.Outcome]int{"group": {}, "job": {}, "workflow": {}}
	for _, c := range rep.Changes {
		counts[c.Kind][c.Outcome]++
		line := fmt.Sprintf("%-5s %-9s %s", c.Kind, c.Outcome, c.Name)
		if c.ID > 0 && !(rep.DryRun && c.Outcome == jobs.Created) {
			line += fmt.Sprintf(" (id %d)", c.ID)
		}
		switch c.Outcome {
		case jobs.Updated:
			line += ": " + strings.Join(c.Fields, ", ")
		case jobs.Kept:
			line += ": differs in " + strings.Join(c.Fields, ", ") + " (kept; --mode overwrite updates it)"
		}
		fmt.Fprintln(w, line)
	}
	for _, kind := range []string{"group", "job", "workflow"} {
		if kind == "workflow" && len(counts[kind]) == 0 {
			continue // a document without workflows reports as before
		}
		var parts []string
		for _, o := range []jobs.Outcome{jobs.Created, jobs.Updated, jobs.Unchanged, jobs.Kept} {
			if n := counts[kind][o]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, o))
			}
		}
		if len(parts) == 0 {
			parts = []string{"none"}
		}
		fmt.Fprintf(w, "%ss: %s\n", kind, strings.Join(parts, ", "))
	}
}
