package policy

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/internal/readme"
)

var update = flag.Bool("update", false, "rewrite docs/egress.md's range table")

// TestDocsPrintTheRangeTable keeps the table of refused ranges in
// docs/egress.md, the egress's reference for network teams, identical to
// the table the code uses.
func TestDocsPrintTheRangeTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("| Prefix | Verdict | Range |\n|---|---|---|\n")
	for _, r := range rows {
		verdict := map[action]string{refuse: "refused", allow: "admitted", embedded: "judged by the IPv4 inside"}[r.action]
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", r.prefix, verdict, r.rng)
	}
	readme.Check(t, "../../docs/egress.md", "ranges", b.String(), *update)
}
