package limits

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/internal/readme"
)

var update = flag.Bool("update", false, "rewrite docs/limits.md's table")

// TestDocsPrintTable keeps the table of docs/limits.md identical to Table.
func TestDocsPrintTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("| Name | Meaning | Value |\n|---|---|---|\n")
	for _, l := range Table() {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", l.Name, l.Meaning, l.Value)
	}
	readme.Check(t, "../../docs/limits.md", "limits", b.String(), *update)
}

func TestDerivedValues(t *testing.T) {
	if S7SearchCallMax != S4SearchDeadline+500*1e6 {
		t.Errorf("LIM-S7 = %v, want S4 + 500 ms", S7SearchCallMax)
	}
	if S5EngineTimeout+S6ReservedAfter > S4SearchDeadline {
		t.Error("the defaults break S5 + S6 <= S4")
	}
}

func TestTableIsTheCallersCopy(t *testing.T) {
	tb := Table()
	tb[0].Value = "unbounded"
	if Table()[0].Value == "unbounded" {
		t.Error("a caller's change reached the table")
	}
}
