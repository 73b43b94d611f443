package main

import (
	"os/exec"
	"strings"
	"testing"
)

const sdk = "github.com/modelcontextprotocol/go-sdk"

// TestOnlyTheAdapterDependsOnTheMCPSDK checks REQ-ARCH-005 (DECISIONS.md
// §2): no package under front/ depends on the MCP SDK except the adapter
// (front/mcpserver) and the command line that wires it (which imports
// only the adapter).
func TestOnlyTheAdapterDependsOnTheMCPSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}|{{join .Deps " "}}`, "github.com/rypsok/rypsok/front/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		pkg, imports, deps := parts[0], parts[1], parts[2]
		switch {
		case strings.HasSuffix(pkg, "/front/mcpserver"):
			continue
		case strings.HasSuffix(pkg, "/front/cli"):
			if strings.Contains(imports, sdk) {
				t.Errorf("%s imports the MCP SDK itself", pkg)
			}
		case strings.Contains(deps, sdk):
			t.Errorf("%s depends on the MCP SDK", pkg)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages", checked)
	}
}
