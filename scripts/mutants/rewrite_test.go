package main

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `package door

// D is a door.
type D struct{ n int }

type V struct{}

type R[T any] struct{ v T }

// Fire counts a fire.
func (d *D) Fire(id int, tags ...string) error {
	d.n++
	return nil
}

func (V) Note(int, string, ...int) {}

func (V) Skip(_ int, s string) {}

func (v V) Pair(a, b int) (x, y int, err error) { return a, b, nil }

func (r *R[T]) Get() T { return r.v }

func Fire() {}
`

func TestMutate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target target
		kind   kind
		want   []string // in the mutated source
	}{
		{"pointer receiver, double", target{Name: "fire", Recv: "D", Method: "Fire", Dropped: "nil"}, double, []string{
			"func (d *D) mutantOriginalFire(id int, tags ...string) error {",
			"mr0 := d.mutantOriginalFire(id, tags...)\n\td.mutantOriginalFire(id, tags...)\n\treturn mr0",
		}},
		{"pointer receiver, drop", target{Name: "fire", Recv: "D", Method: "Fire", Dropped: "nil"}, drop, []string{
			"if mutantTick()%2 == 0 {\n\t\treturn nil\n\t}\n\treturn d.mutantOriginalFire(id, tags...)",
		}},
		{"unnamed receiver and parameters, no results", target{Name: "note", Recv: "V", Method: "Note"}, double, []string{
			"func (mr V) Note(mp0_0 int, mp1_0 string, mp2_0 ...int) {\n\tmr.mutantOriginalNote(mp0_0, mp1_0, mp2_0...)\n\tmr.mutantOriginalNote(mp0_0, mp1_0, mp2_0...)\n}",
		}},
		{"blank parameter", target{Name: "skip", Recv: "V", Method: "Skip"}, double, []string{
			"func (mr V) Skip(mp0_0 int, s string) {\n\tmr.mutantOriginalSkip(mp0_0, s)",
		}},
		{"no results, drop", target{Name: "note", Recv: "V", Method: "Note"}, drop, []string{
			"if mutantTick()%2 == 0 {\n\t\treturn\n\t}\n\tmr.mutantOriginalNote(mp0_0, mp1_0, mp2_0...)\n}",
		}},
		{"named results", target{Name: "pair", Recv: "V", Method: "Pair", Dropped: "0, 0, nil"}, double, []string{
			"func (v V) Pair(a int, b int) (int, int, error) {\n\tmr0, mr1, mr2 := v.mutantOriginalPair(a, b)",
			"return mr0, mr1, mr2",
		}},
		{"generic receiver", target{Name: "get", Recv: "R", Method: "Get", Dropped: "*new(T)"}, drop, []string{
			"func (r *R[T]) Get() T {", "return *new(T)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mutate("door.go", []byte(sample), tc.target, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("mutant lacks\n%s\n--- mutant:\n%s", w, out)
				}
			}
			typeCheck(t, out)
			// The package-level function of the same name is left alone.
			if !strings.Contains(string(out), "func Fire() {}") {
				t.Errorf("function Fire changed:\n%s", out)
			}
		})
	}
}

// typeCheck fails unless src is a valid Go package on its own.
func typeCheck(t *testing.T, src []byte) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "door.go", src, 0)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if _, err := (&types.Config{}).Check("door", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("type check: %v\n%s", err, src)
	}
}

func TestMutateRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		target  target
		kind    kind
		wantErr string
		is      error
	}{
		{"method gone", sample, target{Name: "x", Recv: "D", Method: "Close", Dropped: "nil"}, double, "(D).Close", errNotFound},
		{"other receiver", sample, target{Name: "x", Recv: "V", Method: "Fire", Dropped: "nil"}, double, "(V).Fire", errNotFound},
		{"name taken", sample + "\nfunc mutantTick() int { return 0 }\n", target{Name: "x", Recv: "D", Method: "Fire", Dropped: "nil"},
			drop, "already declares mutantTick", nil},
		{"drop without a result", sample, target{Name: "x", Recv: "D", Method: "Fire"}, drop, "no dropped result", nil},
		{"not Go", "package door\nfunc (", target{Name: "x", Recv: "D", Method: "Fire"}, double, "parse door.go", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mutate("door.go", []byte(tc.src), tc.target, tc.kind)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err %v, want %q", err, tc.wantErr)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("err %v is not %v", err, tc.is)
			}
		})
	}
}

// TestTargetsFound: both doors are where the targets say, so every mutant
// can be written. A refactoring that moves one fails here first.
func TestTargetsFound(t *testing.T) {
	for _, m := range allMutants() {
		src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(m.target.File)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := mutate(m.target.File, src, m.target, m.kind); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
}

// TestOverlayReachesNestedBuilds: a mutant given as an overlay in GOFLAGS
// is what a go command started by the test binary builds too (the cluster,
// drop-in and mixed suites go build the admin), and double and drop do
// what they say.
func TestOverlayReachesNestedBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a small module")
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	door := write("door/door.go", sample)
	write("main.go", `package main

import (
	"fmt"

	"example.com/m/door"
)

func main() {
	d := &door.D{}
	for range 4 {
		_ = d.Fire(1)
	}
	fmt.Println(door.Count(d))
}
`)
	write("door/count.go", "package door\n\nfunc Count(d *D) int { return d.n }\n")
	tg := target{Name: "fire", Recv: "D", Method: "Fire", Dropped: "nil"}
	for _, tc := range []struct {
		kind kind
		want string
	}{{double, "8"}, {drop, "2"}} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			out, err := mutate("door.go", []byte(sample), tg, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			mutated := write(tc.kind.String()+"/door.go", string(out))
			spec, _ := json.Marshal(map[string]map[string]string{"Replace": {door: mutated}})
			overlay := write(tc.kind.String()+"/overlay.json", string(spec))
			flags, err := goflags(overlay)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "run", ".")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS="+flags, "GOWORK=off")
			got, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go run: %v\n%s", err, got)
			}
			if strings.TrimSpace(string(got)) != tc.want {
				t.Fatalf("4 fires through the %s mutant counted %s, want %s", tc.kind, got, tc.want)
			}
		})
	}
}
