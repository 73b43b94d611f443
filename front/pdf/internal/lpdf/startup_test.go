package lpdf

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTableBuiltAtStartUp checks rypsok's change to the reader: no
// package-level variable is a map literal, which Go builds when the
// program starts (arrays and slices of constants are static data); a map
// is built on first use.
func TestNoTableBuiltAtStartUp(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := gotoken.NewFileSet()
	read := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		for _, d := range f.Decls {
			gen, ok := d.(*ast.GenDecl)
			if !ok || gen.Tok != gotoken.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				for i, v := range spec.(*ast.ValueSpec).Values {
					if lit, ok := v.(*ast.CompositeLit); ok {
						if _, isMap := lit.Type.(*ast.MapType); isMap {
							t.Errorf("%s: %s is a map literal built at start-up", name, spec.(*ast.ValueSpec).Names[i])
						}
					}
				}
			}
		}
	}
	if read < 7 {
		t.Fatalf("read %d files", read)
	}
}
