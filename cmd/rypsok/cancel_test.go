package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestACancelledCallStopsItsWork cancels a web_search over stdio while its
// engine hangs: the client's notifications/cancelled must stop the
// engine request (the fake sees it abandoned) well before the engine
// timeout, and the server keeps serving.
func TestACancelledCallStopsItsWork(t *testing.T) {
	arrived := make(chan struct{}, 1)
	abandoned := make(chan struct{}, 1)
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
		abandoned <- struct{}{}
	}))
	defer hanging.Close()
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf("config_version = 1\n[search]\ndeadline_ms = 10000\n[egress]\ndns_servers = [\"127.0.0.1:1\"]\n[engines.wikipedia]\ntype = \"wikipedia\"\nendpoint = %q\n", hanging.URL+"/w")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, _, _ := session(t, "RYPSOK_CONFIG="+cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "golang"}})
		done <- err
	}()
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the engine request never arrived")
	}
	start := time.Now()
	cancel()
	select {
	case <-abandoned:
	case <-time.After(1500 * time.Millisecond):
		t.Fatal("the engine request outlived the cancellation (LIM-S5 is 2 s)")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancellation took %v", took)
	}
	<-done
	if isErr, obj := callTool(t, cs, "engine_status", nil); isErr || obj["outcome"] != "ok" {
		t.Fatalf("the server stopped serving: %v", obj)
	}
}
