package app

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/transfer"
)

// importProgress is `jobs import`'s progress on a terminal: which pass,
// how many jobs of how many, the time so far (an import of thousands of
// jobs takes a while; one of a few shows nothing).
func importProgress(line *progressLine, began time.Time) func(transfer.ImportProgress) {
	return func(p transfer.ImportProgress) {
		stage := "creating the new jobs"
		if p.Pass == 2 {
			stage = "writing every job"
		}
		line.Show(fmt.Sprintf("jobs import: pass %d/2, %s: %d of %d jobs, %s",
			p.Pass, stage, p.Done, p.Total, line.now().Sub(began).Round(time.Second)))
	}
}

// logImport writes the import's summary line to the log: the outcome
// counts of each kind and how long it took. It is written at info level
// whatever level the command's log has (warn), as the one line a log
// collector keeps of the command.
func logImport(log zerolog.Logger, rep transfer.Report, took time.Duration) {
	info := log.Level(zerolog.InfoLevel)
	ev := info.Info().Str("mode", string(rep.Mode)).Bool("dry_run", rep.DryRun)
	for _, kind := range []string{"group", "job", "workflow"} {
		for _, o := range []jobs.Outcome{jobs.Created, jobs.Updated, jobs.Unchanged, jobs.Kept} {
			ev = ev.Int(kind+"s_"+string(o), rep.Count(kind, o))
		}
	}
	ev.Float64("seconds", took.Seconds()).Msg("jobs import")
}
