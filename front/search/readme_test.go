package search

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/secrets"
	"github.com/rypsok/rypsok/internal/readme"
)

var update = flag.Bool("update", false, "rewrite docs/security.md's generated sections")

// TestDocsListTheCheckedFormatsAndPatterns keeps the lists of credential
// formats and instruction-like patterns in docs/security.md those the
// code uses.
func TestDocsListTheCheckedFormatsAndPatterns(t *testing.T) {
	var kinds []string
	for _, k := range secrets.Kinds {
		kinds = append(kinds, "`"+string(k)+"`")
	}
	readme.Check(t, "../../docs/security.md", "secret-kinds", strings.Join(kinds, ", ")+"\n", *update)
	var b strings.Builder
	b.WriteString("| Family | Rule | Example |\n|---|---|---|\n")
	for _, p := range boundary.Patterns() {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", p.Name, cell(p.Rule), cell(p.Example))
	}
	readme.Check(t, "../../docs/security.md", "instruction-patterns", b.String(), *update)
}

// cell writes s as a Markdown table cell in code.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return "`` " + s + " ``"
}
