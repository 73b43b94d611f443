package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMakeRunWritesOnlyMCPToStdout reproduces issue 16's first hour: `make
// run` echoed make's command lines (the build's and its own) on stdout,
// the MCP channel, and a strict client broke on the first one. Given an
// initialize line and then the end of input, as a host's first message,
// `make run`'s stdout holds exactly one line, the JSON-RPC answer to
// initialize; make's own lines go to stderr. The binaries are built into
// a temporary BIN, so the test leaves the tree as it was.
func TestMakeRunWritesOnlyMCPToStdout(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// A bound on a build with a cold cache, not a pause: with the build
	// cache warm, make run answers within seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := filepath.Rel(root, t.TempDir()) // relative, as BIN's default is
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "make", "run", "BIN="+bin)
	cmd.Dir = root
	cmd.Env = topLevelEnv()
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("make run: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	for _, line := range lines {
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line is no JSON-RPC message: %.200q", line)
			continue
		}
		if string(msg.ID) != "1" || msg.Result == nil {
			t.Errorf("stdout line is not the answer to initialize: %.200q", line)
		}
	}
	if len(lines) != 1 {
		t.Errorf("stdout has %d lines, want the one answer to initialize:\n%s", len(lines), stdout.String())
	}
}

// topLevelEnv is this process's environment as a newcomer's shell has it:
// without the variables of an enclosing make (under `make test`, make would
// print "Entering directory" on stdout as a sub-make) and without a
// configuration file of rypsok's.
func topLevelEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "RYPSOK_CONFIG":
			continue
		}
		env = append(env, kv)
	}
	return env
}
