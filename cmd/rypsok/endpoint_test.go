package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAnEngineEndpointOpensNoWebFetch is the attack on a SearXNG endpoint
// on a loopback port outside 443/80: `rypsok check` used to demand an
// [egress] allow rule for it, and that rule let web_fetch read the
// instance (its /admin page included). With no allow rule, the
// configuration is valid, web_search reaches the instance through the
// egress, and web_fetch of the same host and port, http allowed, is
// denied, egress, without the instance ever seeing the request.
func TestAnEngineEndpointOpensNoWebFetch(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		if r.URL.Path != "/search" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<html><head><title>Admin</title></head><body><article><h1>Admin</h1><p>The instance's settings, for its operator only.</p></article></body></html>")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"query":"tides","number_of_results":1,"results":[{"url":"https://example.org/tides","title":"Tide tables","content":"When the tide turns","engine":"x","score":1}]}`)
	}))
	defer searx.Close()
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf("config_version = 1\n[egress]\ndns_servers = [\"127.0.0.1:1\"]\nallow_http = true\n[engines.searx]\ntype = \"searxng\"\nendpoint = %q\n", searx.URL)
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	check := rypsok(ctx, nil, "check", "--config", cfg)
	var stdout, stderr bytes.Buffer
	check.Stdout, check.Stderr = &stdout, &stderr
	if err := check.Run(); err != nil || stdout.String() != cfg+": valid\n" {
		t.Fatalf("rypsok check: %v, stdout %q, stderr %q; want valid without an allow rule", err, stdout.String(), stderr.String())
	}

	cs, _, _ := session(t, "RYPSOK_CONFIG="+cfg)
	isErr, obj := callTool(t, cs, "web_search", map[string]any{"query": "tides"})
	if isErr || obj["outcome"] != "ok" || !strings.Contains(fmt.Sprint(obj["results"]), "https://example.org/tides") {
		t.Fatalf("web_search: %v, want ok with the instance's result", obj)
	}
	https := strings.Replace(searx.URL, "http://", "https://", 1)
	for _, tc := range []struct{ name, url string }{
		{"the instance's admin page", searx.URL + "/admin"},
		{"the engine's own search path", searx.URL + "/search?q=tides&format=json"},
		{"the same host and port over https", https + "/admin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj := callTool(t, cs, "web_fetch", map[string]any{"url": tc.url})
			e, _ := obj["error"].(map[string]any)
			d, _ := e["detail"].(map[string]any)
			if !isErr || e["kind"] != "denied" || d["reason"] != "egress" {
				t.Fatalf("web_fetch %s: %v, want denied, egress", tc.url, obj)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "/search" {
		t.Errorf("the instance was asked for %q, want only web_search's /search", paths)
	}
}
