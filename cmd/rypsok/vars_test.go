package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedAndEgressExportNoMutableVars checks that no package of shared/
// or egress/ exports a package-level variable other than a sentinel error
// (errors.New or fmt.Errorf): a closed list or a table is an unexported
// variable behind a function returning a copy (contract.Reasons,
// policy.Ranges, limits.Table), so no package can change the contract's
// vocabulary, the address table's names or the documented limits at run
// time.
func TestSharedAndEgressExportNoMutableVars(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	for _, root := range []string{"../../shared", "../../egress"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			files++
			for _, name := range exportedVars(f) {
				t.Errorf("%s: exported variable %s; unexport it behind a function returning a copy", path, name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 20 {
		t.Fatalf("read only %d files", files)
	}
}

// exportedVars returns the exported package-level variables of f that are
// not sentinel errors.
func exportedVars(f *ast.File) []string {
	var names []string
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.IsExported() && (i >= len(vs.Values) || !sentinelError(vs.Values[i])) {
					names = append(names, name.Name)
				}
			}
		}
	}
	return names
}

// sentinelError reports whether e is a call of errors.New or fmt.Errorf.
func sentinelError(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}
