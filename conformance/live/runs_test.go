package live

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
)

// An admin that sends one /run twice leaves one log row — the executor
// runs the job twice under that log id and the second callback changes
// nothing — so the log rows cannot show it. What an executor ran is read
// from its run ledger instead: each handler appends "<logId> <handler>"
// when it starts (conformance/java RunLedger, conformance/pyxxl).

// ledger reads an executor's run ledger.
type ledger func() ([]javaexec.Run, error)

// pyxxlLedger is the run ledger of a pyxxl executor started with work
// directory dir.
func pyxxlLedger(dir string) ledger {
	return func() ([]javaexec.Run, error) { return javaexec.ReadRuns(dir + "/runs.txt") }
}

// executed waits until the executor at address has no run of jobs going
// or queued (its idleBeat answers 200; a second /run of a log id queues
// behind the first), then returns how often it ran each log id.
func (f *fixture) executed(address string, runs ledger, jobs ...int) map[int64]int {
	f.t.Helper()
	client := f.client
	if client == nil {
		client = api.NewClient(api.ClientConfig{AccessToken: token})
		defer client.CloseIdleConnections()
	}
	for _, job := range jobs {
		f.eventually(fmt.Sprintf("executor idle for job %d", job), 30*time.Second, func() (bool, string) {
			r := client.IdleBeat(context.Background(), address, api.IdleBeatParam{JobID: job})
			return r.Code == api.CodeSuccess, r.MsgText()
		})
	}
	got, err := runs()
	if err != nil {
		f.t.Fatal(err)
	}
	return javaexec.CountRuns(got)
}

// ranOnce lists, for each log id given, a problem when the executor did
// not run it exactly once.
func ranOnce(ran map[int64]int, ids ...int64) []string {
	var out []string
	for _, id := range ids {
		if n := ran[id]; n != 1 {
			out = append(out, fmt.Sprintf("log %d ran %d times at the executor (want 1)", id, n))
		}
	}
	return out
}

// checkRanOnce fails the test unless each log id ran exactly once at the
// executor at address.
func (f *fixture) checkRanOnce(address string, runs ledger, jobs []int, ids ...int64) {
	f.t.Helper()
	ran := f.executed(address, runs, jobs...)
	for _, p := range ranOnce(ran, ids...) {
		f.t.Error(p)
	}
	if f.t.Failed() {
		f.t.Logf("runs per log id at %s: %v", address, ran) // fmt sorts map keys
	}
}
