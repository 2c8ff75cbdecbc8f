package main

import (
	"fmt"
	"strings"
)

// target is a method every fire goes through, at one of the two doors the
// fire-counting suites must guard.
type target struct {
	// Name names the mutants: "<Name>-double", "<Name>-drop".
	Name string
	// File is the file declaring the method, relative to the module root.
	File string
	// Recv and Method name the method: (*Recv).Method or (Recv).Method.
	Recv, Method string
	// Dropped is the Go expression a dropped call returns: what the caller
	// takes for success, so the loss is silent.
	Dropped string
	// Why says why every fire passes here.
	Why string
}

// targets are the two doors. A refactoring that moves either method makes
// the rewrite fail (errNotFound), so the check cannot go blind unnoticed.
var targets = []target{
	{
		Name: "run", File: "compat/api/client.go", Recv: "Client", Method: "Run",
		Dropped: "Success[string]()",
		Why: "the executor client: every /run the admin sends, over the keep-alive direct path (http://) " +
			"or net/http (https://), goes through (*Client).Run into call()",
	},
	{
		Name: "submit", File: "core/trigger/pools.go", Recv: "Pools", Method: "Submit",
		Dropped: "nil",
		Why: "the trigger door: every trigger — schedule ring, console, API, child job, retry — is " +
			"accepted into the fast or slow pool by (*Pools).Submit",
	},
}

// mutant is one kind of breakage of one target.
type mutant struct {
	target target
	kind   kind
}

func (m mutant) String() string { return m.target.Name + "-" + m.kind.String() }

// allMutants lists run-double, run-drop, submit-double, submit-drop.
func allMutants() []mutant {
	var out []mutant
	for _, t := range targets {
		out = append(out, mutant{t, double}, mutant{t, drop})
	}
	return out
}

// findMutants resolves comma-separated mutant names; empty means all.
func findMutants(names string) ([]mutant, error) {
	all := allMutants()
	if strings.TrimSpace(names) == "" {
		return all, nil
	}
	var out []mutant
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, m := range all {
			if m.String() == n {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown mutant %q (have %s)", n, mutantNames(all))
		}
	}
	return out, nil
}

func mutantNames(ms []mutant) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.String())
	}
	return strings.Join(s, ", ")
}
