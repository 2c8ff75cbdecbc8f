package main

import (
	"errors"
	"strings"
	"testing"
)

func TestVerdict(t *testing.T) {
	exit1 := errors.New("exit status 1")
	for _, tc := range []struct {
		name    string
		events  string
		exitErr error
		want    outcome
		why     string
	}{
		{"a subtest failed", `{"Action":"run","Test":"TestLive"}
{"Action":"run","Test":"TestLive/2.4.2"}
{"Action":"output","Test":"TestLive/2.4.2","Output":"=== RUN   TestLive/2.4.2\n"}
{"Action":"output","Test":"TestLive/2.4.2","Output":"    scheduled_test.go:45: log 7 ran 2 times at the executor (want 1)\n"}
{"Action":"output","Test":"TestLive/2.4.2","Output":"    scheduled_test.go:45: log 9 ran 2 times at the executor (want 1)\n"}
{"Action":"fail","Test":"TestLive/2.4.2"}
{"Action":"fail","Test":"TestLive"}
{"Action":"fail"}`, exit1, killed, "TestLive/2.4.2: scheduled_test.go:45: log 7 ran 2 times"},
		{"a test hung", `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"panic: test timed out after 2m0s\n"}
{"Action":"output","Output":"FAIL\tx\t120.1s\n"}
{"Action":"fail","Elapsed":120.1}`, exit1, killed, "hung: TestA: panic: test timed out after 2m0s"},
		{"the failure after a log line", `{"Action":"run","Test":"TestCluster"}
{"Action":"output","Test":"TestCluster","Output":"    cluster_test.go:73: waited 56s for the other clock-counting tests\n"}
{"Action":"output","Test":"TestCluster","Output":"    cluster_test.go:185: duplicate fires: 6608 at the executor\n"}
{"Action":"fail","Test":"TestCluster"}`, exit1, killed, "TestCluster: cluster_test.go:185: duplicate fires"},
		{"all passed", `{"Action":"run","Test":"TestLive"}
{"Action":"pass","Test":"TestLive"}
{"Action":"pass"}`, nil, survived, "every test passed"},
		{"suite off", `{"Action":"run","Test":"TestLive"}
{"Action":"output","Test":"TestLive","Output":"    live_test.go:40: [suite-off] java: XXL_TEST_JAVA=1 not set\n"}
{"Action":"skip","Test":"TestLive"}
{"Action":"pass"}`, nil, suiteOff, "[suite-off] java"},
		{"build failed", `# github.com/x/core/trigger
core/trigger/pools.go:12:2: undefined: foo
FAIL	github.com/x/core/trigger [build failed]`, exit1, broken, "undefined: foo"},
		{"filter matched nothing", `{"Action":"output","Output":"testing: warning: no tests to run\n"}
{"Action":"pass"}`, nil, broken, "no test ran"},
		{"package failed outside a test", `{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA"}
{"Action":"output","Output":"panic in TestMain\n"}
{"Action":"fail"}`, exit1, broken, "exit status 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := verdict(strings.NewReader(tc.events), tc.exitErr)
			if got != tc.want || !strings.Contains(why, tc.why) {
				t.Fatalf("verdict %s %q, want %s containing %q", got, why, tc.want, tc.why)
			}
		})
	}
}

func TestGoflags(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	got, err := goflags("/tmp/m/overlay.json")
	if err != nil || got != "-mod=mod -overlay=/tmp/m/overlay.json" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := goflags("/tmp/a b/overlay.json"); err == nil {
		t.Fatal("a path with a space was accepted")
	}
}

func TestChoosePlan(t *testing.T) {
	p, err := choosePlan("ci", "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range allMutants() {
		if len(p(m)) == 0 {
			t.Errorf("the ci plan runs %s against nothing", m)
		}
	}
	p, err = choosePlan("ci", "./a, ./b", "TestX")
	if err != nil {
		t.Fatal(err)
	}
	if got := p(allMutants()[0]); len(got) != 2 || got[1] != (check{Pkg: "./b", Run: "TestX"}) {
		t.Fatalf("-pkgs plan %v", got)
	}
	if _, err := choosePlan("nightly", "", ""); err == nil {
		t.Fatal("unknown plan accepted")
	}
	if _, err := choosePlan("ci", "", "TestX"); err == nil {
		t.Fatal("-run without -pkgs accepted")
	}
	if _, err := findMutants("run-double, submit-triple"); err == nil || !strings.Contains(err.Error(), "submit-triple") {
		t.Fatalf("unknown mutant: %v", err)
	}
	ms, err := findMutants("submit-drop")
	if err != nil || len(ms) != 1 || ms[0].String() != "submit-drop" {
		t.Fatalf("%v %v", ms, err)
	}
}

func TestPlainOutput(t *testing.T) {
	in := `# example.com/x
{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Test":"TestA","Output":"    a_test.go:3: 4 runs\n"}
{"Action":"pass","Test":"TestA"}
`
	if got, want := plainOutput([]byte(in)), "# example.com/x\n=== RUN   TestA\n    a_test.go:3: 4 runs\n"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}
