package durable

import (
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

const testMarker = ">>>>>>>>>>>retry<<<<<<<<<<<"

// countFixture is one family whose parent succeeded twice: two children
// and two failing children decided, both failing ones marked for a retry.
func countFixture() (*Load, []row, map[int64]fakeexec.Entry) {
	l := &Load{Families: []Family{{Parent: 1, Child: 2, Failing: 3}}, kind: map[int]string{1: "P", 2: "C", 3: "F"}}
	rows := []row{
		{id: 10, job: 1, triggerCode: 200, handleCode: 200},
		{id: 11, job: 1, triggerCode: 200, handleCode: 200},
		{id: 12, job: 1, triggerCode: 500, handleCode: 500}, // a parent fire lost with its admin, settled: decides nothing
		{id: 20, job: 2, triggerCode: 200, handleCode: 200},
		{id: 21, job: 2, triggerCode: 200, handleCode: 200},
		{id: 30, job: 3, retryCount: 1, triggerCode: 200, handleCode: 500, triggerMsg: "x" + testMarker},
		{id: 31, job: 3, retryCount: 1, triggerCode: 200, handleCode: 500, triggerMsg: "y" + testMarker},
		{id: 32, job: 3, retryCount: 0, triggerCode: 200, handleCode: 500},
		{id: 33, job: 3, retryCount: 0, triggerCode: 200, handleCode: 500},
	}
	ledger := map[int64]fakeexec.Entry{}
	for _, r := range rows {
		if r.triggerCode != 0 {
			ledger[r.id] = fakeexec.Entry{JobID: r.job, Received: 1, Started: 1}
		}
	}
	return l, rows, ledger
}

// TestCountExact: every decision fired once counts as such.
func TestCountExact(t *testing.T) {
	l, rows, ledger := countFixture()
	f := count(l, rows, ledger, testMarker)
	if f.ChildrenDecided != 4 || f.RetriesDecided != 2 || f.FiredOnce != 6 || f.LogFiredOnce != 6 ||
		f.Lost+f.Doubled+f.LogLost+f.LogDoubled+f.Unrecorded+f.Unsettled != 0 {
		t.Fatalf("figures:\n%s", f.Table())
	}
}

// TestCountFindsFaults: a child never run, a retry run twice under one log
// id, an extra retry row, a child row without its trigger result, a parent
// row left without any result and a failed log left claimed are each seen.
func TestCountFindsFaults(t *testing.T) {
	cases := []struct {
		name    string
		breakIt func(rows []row, ledger map[int64]fakeexec.Entry) []row
		check   func(f Figures) bool
	}{
		{"child not run", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			delete(ledger, 21)
			return rows
		}, func(f Figures) bool { return f.Lost == 1 && f.LogLost == 0 }},
		{"child row missing", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			delete(ledger, 21)
			return append(rows[:4], rows[5:]...)
		}, func(f Figures) bool { return f.Lost == 1 && f.LogLost == 1 }},
		{"retry run twice", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			e := ledger[32]
			e.Started = 2
			ledger[32] = e
			return rows
		}, func(f Figures) bool { return f.Doubled == 1 && f.LogDoubled == 0 }},
		{"retry fired twice", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			ledger[34] = fakeexec.Entry{JobID: 3, Received: 1, Started: 1}
			return append(rows, row{id: 34, job: 3, triggerCode: 200, handleCode: 500})
		}, func(f Figures) bool { return f.Doubled == 1 && f.LogDoubled == 1 }},
		{"unrecorded", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			rows[3].triggerCode = 0
			return rows
		}, func(f Figures) bool { return f.Unrecorded == 1 && f.Unsettled == 0 }},
		{"parent left without a result", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			rows[2].triggerCode, rows[2].handleCode = 0, 0
			return rows
		}, func(f Figures) bool { return f.Unsettled == 1 && f.Unrecorded == 0 && f.Lost == 0 }},
		{"left claimed", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			rows[6].triggerMsg, rows[6].alarmStatus = "y", -1
			delete(ledger, 33)
			return append(rows[:8], rows[9:]...)
		}, func(f Figures) bool {
			return f.Undecided == 1 && f.RetriesDecided == 1 && f.Lost == 0 && f.LogLost == 0
		}},
		// Handled (alarm_status moved on) but its trigger_msg lost the
		// marker: its retry was decided, and its retry row is no double.
		{"marker overwritten", func(rows []row, ledger map[int64]fakeexec.Entry) []row {
			rows[6].triggerMsg, rows[6].alarmStatus = "y", 3
			return rows
		}, func(f Figures) bool {
			return f.MarkerLost == 1 && f.RetriesDecided == 2 && f.Doubled == 0 && f.LogDoubled == 0
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, rows, ledger := countFixture()
			rows = c.breakIt(rows, ledger)
			if f := count(l, rows, ledger, testMarker); !c.check(f) {
				t.Fatalf("figures:\n%s", f.Table())
			}
		})
	}
}

// TestWfExpectIsTheShape: with every trigger sent, the rules give the
// states written out by hand in wfShape and wfRunWant.
func TestWfExpectIsTheShape(t *testing.T) {
	r, _ := wfFixture()
	want, run := wfExpect(r, 7)
	for _, nd := range wfShape {
		if want[nd.id] != nd.want {
			t.Errorf("node %d: rules give %s, wfShape says %s", nd.id, want[nd.id], nd.want)
		}
	}
	if run != wfRunWant {
		t.Errorf("run: rules give %s, want %s", run, wfRunWant)
	}
}

// wfFixture is one run of wfShape seen through exactly: a log row and a
// run per node that runs, none for node 5.
func wfFixture() (wfRead, map[int64]fakeexec.Entry) {
	r := wfRead{runs: map[int64]string{7: "FAILED"}, nodes: map[wfRunKey]string{}, logs: map[wfRunKey][]int64{}}
	ledger := map[int64]fakeexec.Entry{}
	for _, nd := range wfShape {
		k := wfRunKey{7, nd.id}
		r.nodes[k] = string(nd.want)
		if nd.want != "SKIPPED" {
			id := int64(100 + nd.id)
			r.logs[k] = []int64{id}
			ledger[id] = fakeexec.Entry{JobID: 1000 + nd.id, Received: 1, Started: 1}
		}
	}
	return r, ledger
}

func isWfJob(job int) bool { return job > 1000 }

// TestCountWorkflows: a run seen through exactly counts its 9 nodes once;
// a lost node, a node run twice, a skipped node that ran, a wrong state
// and an open run each show.
func TestCountWorkflows(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(r *wfRead, ledger map[int64]fakeexec.Entry)
		check func(f WfFigures) bool
	}{
		{"exact", func(*wfRead, map[int64]fakeexec.Entry) {}, func(f WfFigures) bool {
			return f.Runs == 1 && f.NodesDecided == 9 && f.ExecutedOnce == 9 && f.LogExecutedOnce == 9 && !f.Bad()
		}},
		{"lost", func(r *wfRead, l map[int64]fakeexec.Entry) { delete(r.logs, wfRunKey{7, 10}); delete(l, 110) }, func(f WfFigures) bool {
			return f.Lost == 1 && f.LogLost == 1 && f.ExecutedOnce == 8
		}},
		{"run twice", func(_ *wfRead, l map[int64]fakeexec.Entry) { e := l[102]; e.Started = 2; l[102] = e }, func(f WfFigures) bool {
			return f.Doubled == 1 && f.LogDoubled == 0
		}},
		{"second row", func(r *wfRead, l map[int64]fakeexec.Entry) {
			r.logs[wfRunKey{7, 2}] = append(r.logs[wfRunKey{7, 2}], 200)
			l[200] = fakeexec.Entry{JobID: 1002, Started: 1}
		}, func(f WfFigures) bool { return f.Doubled == 1 && f.LogDoubled == 1 }},
		{"skipped node ran", func(r *wfRead, l map[int64]fakeexec.Entry) {
			r.logs[wfRunKey{7, 5}] = []int64{105}
			l[105] = fakeexec.Entry{JobID: 1005, Started: 1}
		}, func(f WfFigures) bool { return f.Doubled == 1 && f.LogDoubled == 1 }},
		{"run of no row", func(_ *wfRead, l map[int64]fakeexec.Entry) { l[300] = fakeexec.Entry{JobID: 1003, Started: 1} },
			func(f WfFigures) bool { return f.Doubled == 1 && f.LogDoubled == 0 }},
		{"stray row", func(r *wfRead, _ map[int64]fakeexec.Entry) { r.stray = []int64{400} },
			func(f WfFigures) bool { return f.LogDoubled == 1 }},
		{"wrong states", func(r *wfRead, _ map[int64]fakeexec.Entry) {
			r.nodes[wfRunKey{7, 5}] = "SUCCEEDED"
			r.runs[7] = "SUCCEEDED"
		}, func(f WfFigures) bool { return f.WrongNodes == 1 && f.WrongRuns == 1 && f.Bad() }},
		{"open", func(r *wfRead, _ map[int64]fakeexec.Entry) { r.runs[7] = "RUNNING" },
			func(f WfFigures) bool { return f.Open == 1 && f.WrongRuns == 0 && f.Bad() }},
		// Node 2's /run recorded failed (the executor answered late but
		// ran it): 2 failed, so 9 (all_success of 2 and 4) is skipped.
		{"trigger failed", func(r *wfRead, l map[int64]fakeexec.Entry) {
			r.failed = map[wfRunKey]bool{{7, 2}: true}
			r.nodes[wfRunKey{7, 2}] = "FAILED"
			r.nodes[wfRunKey{7, 9}] = "SKIPPED"
			delete(r.logs, wfRunKey{7, 9})
			delete(l, 109)
		}, func(f WfFigures) bool {
			return f.TriggerFailed == 1 && f.NodesDecided == 8 && f.ExecutedOnce == 8 && !f.Bad()
		}},
		{"trigger failed, /run never arrived", func(r *wfRead, l map[int64]fakeexec.Entry) {
			r.failed = map[wfRunKey]bool{{7, 2}: true}
			r.nodes[wfRunKey{7, 2}] = "FAILED"
			r.nodes[wfRunKey{7, 9}] = "SKIPPED"
			delete(r.logs, wfRunKey{7, 9})
			delete(l, 109)
			delete(l, 102)
		}, func(f WfFigures) bool { return f.TriggerFailed == 1 && f.Lost == 0 && !f.Bad() }},
		{"trigger failed, descendants as if not", func(r *wfRead, _ map[int64]fakeexec.Entry) {
			r.failed = map[wfRunKey]bool{{7, 2}: true}
			r.nodes[wfRunKey{7, 2}] = "FAILED"
		}, func(f WfFigures) bool { return f.WrongNodes == 1 && f.Doubled == 1 && f.Bad() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ledger := wfFixture()
			tc.spoil(&r, ledger)
			if f := countWorkflows(r, ledger, isWfJob); !tc.check(f) {
				t.Errorf("%+v", f)
			}
		})
	}
}
