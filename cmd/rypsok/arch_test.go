package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const sdk = "github.com/modelcontextprotocol/go-sdk"

// TestOnlyTheAdapterDependsOnTheMCPSDK checks REQ-ARCH-005 (docs/design/
// decisions.md, the design in Go): no package under front/ depends on the MCP
// SDK except the adapter (front/mcpserver) and the command line that wires it
// (which imports only the adapter).
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

const module = "github.com/rypsok/rypsok"

// egressFakes are the egress packages front tests may use: test fakes of
// the egress and its DNS, not the egress itself.
var egressFakes = []string{module + "/egress/egresstest", module + "/egress/dnstest"}

// TestTheBinariesMeetOnlyInShared: the two binaries share code only
// through shared/ (the contract, the policy and its range table, host
// names, the egress's configuration schema, the limits). rypsok links
// nothing of egress/ and rypsok-egress nothing of front/; no package of
// front/ imports egress/, and its tests only the egress's test fakes; no
// package of egress/ or shared/, tests included, imports front/.
func TestTheBinariesMeetOnlyInShared(t *testing.T) {
	for bin, other := range map[string]string{module + "/cmd/rypsok": "/egress/", module + "/cmd/rypsok-egress": "/front/"} {
		deps := goList(t, `{{join .Deps "\n"}}`, bin)
		if len(deps) < 10 {
			t.Fatalf("%s: only %d dependencies listed", bin, len(deps))
		}
		for _, d := range deps {
			if strings.HasPrefix(d, module+other) {
				t.Errorf("%s links %s", bin, d)
			}
		}
	}
	checked := 0
	for _, line := range goList(t, `{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, module+"/...") {
		parts := strings.SplitN(line, "|", 3)
		pkg, imports, testImports := parts[0], strings.Fields(parts[1]), strings.Fields(parts[2])
		switch {
		case strings.HasPrefix(pkg, module+"/front/"):
			for _, imp := range imports {
				if strings.HasPrefix(imp, module+"/egress/") {
					t.Errorf("%s imports %s", pkg, imp)
				}
			}
			for _, imp := range testImports {
				if strings.HasPrefix(imp, module+"/egress/") && !slices.Contains(egressFakes, imp) {
					t.Errorf("the tests of %s import %s, not a test fake", pkg, imp)
				}
			}
		case strings.HasPrefix(pkg, module+"/egress/"), strings.HasPrefix(pkg, module+"/shared/"):
			for _, imp := range append(imports, testImports...) {
				if strings.HasPrefix(imp, module+"/front/") {
					t.Errorf("%s (or its tests) imports %s", pkg, imp)
				}
			}
		default:
			continue
		}
		checked++
	}
	if checked < 30 {
		t.Fatalf("checked only %d packages", checked)
	}
}

// goList runs go list -f format over pkgs, one line per package.
func goList(t *testing.T, format string, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-f", format}, pkgs...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}
