package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/shared/limits"
)

// TestFetchOverStdio is the fetch demonstration (docs/design: acceptance
// demonstrations) over stdio: a loopback
// address, a private address literal and a NAT64 address are refused, a
// redirect to another host is returned as redirected, a large page ends
// in too_large, robots.txt is honored, and an allowed page is read as
// Markdown in chunks that rebuild it exactly.
func TestFetchOverStdio(t *testing.T) {
	page := "<html><head><title>Tide tables</title></head><body><article><h1>Tides</h1>" +
		strings.Repeat("<p>The tide rises and falls twice a day, more or less, along this coast. </p>", 40) +
		"</article></body></html>"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		case "/big":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(strings.Repeat("a", limits.F3BodyBytes+1)))
		case "/away":
			http.Redirect(w, r, "https://elsewhere.example/x", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	port := site.URL[strings.LastIndexByte(site.URL, ':')+1:]
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf("config_version = 1\n[egress]\ndns_servers = [\"127.0.0.1:1\"]\nallow_http = true\nallow = [\"127.0.0.1:%s\"]\n", port)
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, _, _ := session(t, "RYPSOK_CONFIG="+cfg)
	for _, tc := range []struct {
		name, url, kind, reason string
	}{
		{"a loopback address", "https://127.0.0.1/", "denied", "egress"},
		{"a private address literal", "https://10.0.0.1/", "denied", "egress"},
		{"a NAT64 address of loopback", "https://[64:ff9b::7f00:1]/", "denied", "egress"},
		{"a local-use NAT64 address of loopback", "https://[64:ff9b:1::7f00:1]/", "denied", "egress"},
		{"an ORCHIDv2 address", "https://[2001:20::1]/", "denied", "egress"},
		{"a DRIP address", "https://[2001:30::1]/", "denied", "egress"},
		{"a page robots.txt disallows", site.URL + "/private/x", "denied", "robots_txt"},
		{"a redirect to another host", site.URL + "/away", "redirected", ""},
		{"a page over LIM-F3", site.URL + "/big", "too_large", ""},
		{"a missing page", site.URL + "/none", "unavailable", "http_status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj := callTool(t, cs, "web_fetch", map[string]any{"url": tc.url})
			e, _ := obj["error"].(map[string]any)
			if !isErr || e["kind"] != tc.kind {
				t.Fatalf("got %v, want %s", obj, tc.kind)
			}
			d := e["detail"].(map[string]any)
			if tc.reason != "" && d["reason"] != tc.reason {
				t.Errorf("reason %v, want %s", d["reason"], tc.reason)
			}
			if tc.kind == "redirected" && d["location"] != "https://elsewhere.example/x" {
				t.Errorf("location %v", d["location"])
			}
			if tc.kind == "too_large" && d["limit_bytes"] != float64(limits.F3BodyBytes) {
				t.Errorf("limit_bytes %v", d["limit_bytes"])
			}
		})
	}
	var whole strings.Builder
	start := 0
	for calls := 0; ; calls++ {
		isErr, obj := callTool(t, cs, "web_fetch", map[string]any{"url": site.URL + "/page", "max_chars": 500, "start_char": start})
		if isErr || obj["outcome"] != "ok" || obj["title"] != "Tide tables" {
			t.Fatalf("chunk at %d: %v", start, obj)
		}
		whole.WriteString(obj["content"].(string))
		if obj["truncated"] != true {
			break
		}
		start = int(obj["next_start_char"].(float64))
		if calls > 20 {
			t.Fatal("too many chunks")
		}
	}
	if !strings.HasPrefix(strings.TrimLeft(whole.String(), "#"), " Tides") || strings.Count(whole.String(), "The tide rises") != 40 {
		b, _ := json.Marshal(whole.String())
		t.Errorf("rebuilt content %s", b)
	}
}
