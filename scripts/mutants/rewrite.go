package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"
)

// kind is what a mutant does to its method.
type kind int

const (
	// double calls the method twice with the same arguments and returns
	// the first call's results: every fire goes out twice, and the caller
	// sees nothing unusual.
	double kind = iota + 1
	// drop skips every second call and returns the target's dropped
	// results as if the call had worked: every second fire is lost
	// silently.
	drop
)

func (k kind) String() string {
	switch k {
	case double:
		return "double"
	case drop:
		return "drop"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// errNotFound is returned when the target method is not in its file: a
// refactoring moved or renamed it, and the check must be updated rather
// than silently mutate nothing.
var errNotFound = errors.New("target method not found")

// Names the rewrite adds to the package; a clash is reported, not papered
// over.
const (
	originalPrefix = "mutantOriginal"
	tickFunc       = "mutantTick"
	tickVar        = "mutantTicks"
)

// mutate rewrites src, the file holding target's method: the method is
// renamed mutantOriginal<Method>, and a method with the original name and
// signature is appended that calls it twice (double) or skips every second
// call (drop). Everything else in the file is unchanged, so line numbers
// in failures still point at the real code.
func mutate(filename string, src []byte, t target, k kind) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", filename, err)
	}
	var fd *ast.FuncDecl
	for _, d := range file.Decls {
		f, ok := d.(*ast.FuncDecl)
		if !ok || f.Recv == nil || f.Name.Name != t.Method || receiverType(f.Recv) != t.Recv {
			continue
		}
		if fd != nil {
			return nil, fmt.Errorf("%s: (%s).%s declared twice", filename, t.Recv, t.Method)
		}
		fd = f
	}
	if fd == nil {
		return nil, fmt.Errorf("%s: method (%s).%s: %w (moved or renamed? update the targets of scripts/mutants)",
			filename, t.Recv, t.Method, errNotFound)
	}
	original := originalPrefix + t.Method
	for _, name := range []string{original, tickFunc, tickVar} {
		if declares(file, name) {
			return nil, fmt.Errorf("%s already declares %s", filename, name)
		}
	}
	if k == drop && fd.Type.Results != nil && t.Dropped == "" {
		return nil, fmt.Errorf("target %s: no dropped result for a method with results", t.Name)
	}
	wrapper, err := wrapperSource(fset, fd, original, t, k)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	fd.Name.Name = original

	var out bytes.Buffer
	if err := format.Node(&out, fset, file); err != nil {
		return nil, fmt.Errorf("print %s: %w", filename, err)
	}
	out.WriteString(wrapper)
	formatted, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("mutant of %s does not parse: %w", filename, err)
	}
	return formatted, nil
}

// receiverType is the receiver's type name without pointer and type
// parameters.
func receiverType(recv *ast.FieldList) string {
	if len(recv.List) != 1 {
		return ""
	}
	e := recv.List[0].Type
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// declares reports whether file declares name at package level (a method
// of the same name counts too: the rename must not clash with one).
func declares(file *ast.File, name string) bool {
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == name {
				return true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return true
						}
					}
				case *ast.TypeSpec:
					if s.Name.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// wrapperSource writes the method that replaces fd: same receiver, name
// and signature, its body calling original per k.
func wrapperSource(fset *token.FileSet, fd *ast.FuncDecl, original string, t target, k kind) (string, error) {
	node := func(n ast.Node) (string, error) {
		var b strings.Builder
		if err := printer.Fprint(&b, fset, n); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	recvField := fd.Recv.List[0]
	recvName := "mr"
	if len(recvField.Names) == 1 && recvField.Names[0].Name != "_" {
		recvName = recvField.Names[0].Name
	}
	recvType, err := node(recvField.Type)
	if err != nil {
		return "", err
	}
	var params, args []string
	for i, f := range fd.Type.Params.List {
		typ, err := node(f.Type)
		if err != nil {
			return "", err
		}
		_, variadic := f.Type.(*ast.Ellipsis)
		names := f.Names
		if len(names) == 0 {
			names = []*ast.Ident{ast.NewIdent("")}
		}
		for j, n := range names {
			name := n.Name
			if name == "" || name == "_" {
				name = fmt.Sprintf("mp%d_%d", i, j)
			}
			params = append(params, name+" "+typ)
			if variadic {
				name += "..."
			}
			args = append(args, name)
		}
	}
	results := 0
	resultsText := ""
	if fd.Type.Results != nil {
		var types []string
		for _, f := range fd.Type.Results.List {
			typ, err := node(f.Type)
			if err != nil {
				return "", err
			}
			for range max(1, len(f.Names)) {
				types = append(types, typ)
				results++
			}
		}
		resultsText = " " + strings.Join(types, ", ")
		if results > 1 {
			resultsText = " (" + strings.Join(types, ", ") + ")"
		}
	}
	call := fmt.Sprintf("%s.%s(%s)", recvName, original, strings.Join(args, ", "))

	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s is mutant %s-%s, written by scripts/mutants: a broken %s\n// that the fire-counting tests must catch.\n",
		t.Method, t.Name, k, t.Name)
	fmt.Fprintf(&b, "func (%s %s) %s(%s)%s {\n", recvName, recvType, t.Method, strings.Join(params, ", "), resultsText)
	switch k {
	case double:
		if results == 0 {
			fmt.Fprintf(&b, "\t%s\n\t%s\n}\n", call, call)
			break
		}
		var rs []string
		for i := range results {
			rs = append(rs, fmt.Sprintf("mr%d", i))
		}
		fmt.Fprintf(&b, "\t%s := %s\n\t%s\n\treturn %s\n}\n", strings.Join(rs, ", "), call, call, strings.Join(rs, ", "))
	case drop:
		fmt.Fprintf(&b, "\tif %s()%%2 == 0 {\n\t\treturn %s\n\t}\n", tickFunc, t.Dropped)
		if results == 0 {
			fmt.Fprintf(&b, "\t%s\n}\n", call)
		} else {
			fmt.Fprintf(&b, "\treturn %s\n}\n", call)
		}
		// A channel holding the count serialises concurrent calls without
		// adding an import to the file.
		fmt.Fprintf(&b, "\nvar %s = func() chan int { c := make(chan int, 1); c <- 0; return c }()\n", tickVar)
		fmt.Fprintf(&b, "\nfunc %s() int {\n\tn := <-%s + 1\n\t%s <- n\n\treturn n\n}\n", tickFunc, tickVar, tickVar)
	default:
		return "", fmt.Errorf("unknown mutant kind %v", k)
	}
	return b.String(), nil
}
