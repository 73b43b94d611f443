package gate_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/gate"
	"github.com/rypsok/rypsok/front/mcpserver"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/telemetry"
	"github.com/rypsok/rypsok/shared/limits"
)

func noEnv(string) string { return "" }

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fixture is a gate serving rypsok's MCP handlers on loopback.
type fixture struct {
	url     string
	addr    string
	metrics *telemetry.Metrics
	log     *syncBuffer
	srv     *gate.Server
}

// tokens used by the tests: two callers.
const (
	tokenA = "token-of-caller-a-0123456789"
	tokenB = "token-of-caller-b-0123456789"
)

func withTokens(o *gate.Options) {
	o.HTTP.Tokens = []config.Token{
		{Caller: "a", Digest: sha256.Sum256([]byte(tokenA))},
		{Caller: "b", Digest: sha256.Sum256([]byte(tokenB))},
	}
}

func serve(t *testing.T, opts ...func(*gate.Options)) *fixture {
	t.Helper()
	m := telemetry.New()
	logs := &syncBuffer{}
	cfg := config.Default(noEnv)
	services := app.New(app.Options{Config: cfg, Metrics: m, Log: zerolog.New(logs)})
	o := gate.Options{
		HTTP:    cfg.Service.HTTP,
		MCP:     mcpserver.NewHTTP(mcpserver.Options{Services: services, Version: "test", StructuredContent: true, Caller: config.CallerLocal}),
		Log:     zerolog.New(logs),
		Metrics: m,
	}
	for _, f := range opts {
		f(&o)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := gate.Serve(ln, o)
	t.Cleanup(func() { srv.Shutdown() })
	addr := srv.Addr().String()
	return &fixture{url: "http://" + addr + gate.Path, addr: addr, metrics: m, log: logs, srv: srv}
}

const (
	modernList = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	legacyList = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
)

// post sends body with the headers of a well-formed request, changed by
// edit, and returns the response with its body read.
func (f *fixture) post(t *testing.T, body string, edit func(*http.Request)) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if strings.Contains(body, "2026-07-28") {
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		var m struct{ Method string }
		json.Unmarshal([]byte(body), &m)
		req.Header.Set("Mcp-Method", m.Method)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func bearer(tok string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }
}

// TestStatusTable is the status table as served (docs/operations.md,
// serving over HTTP), one row per case.
func TestStatusTable(t *testing.T) {
	plain := serve(t)
	authed := serve(t, withTokens)
	for _, tc := range []struct {
		name   string
		f      *fixture
		body   string
		edit   func(*http.Request)
		status int
		want   string               // in the body
		reason response.HTTPRefusal // counted, "" for none
	}{
		{"200 a modern tools/list", plain, modernList, nil, 200, `"tools"`, ""},
		{"200 a legacy initialize", plain, initialize, nil, 200, `"protocolVersion":"2025-06-18"`, ""},
		{"400 a modern call of an unknown tool (-32602)", plain, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
			func(r *http.Request) { r.Header.Set("Mcp-Name", "nope") }, 400, `-32602`, response.HTTPBadRequest},
		{"400 a protocol header that disagrees with the body", plain, modernList, func(r *http.Request) { r.Header.Set("Mcp-Method", "tools/call") }, 400, "", response.HTTPBadRequest},
		{"400 a legacy request without a session", plain, legacyList, nil, 400, "initialize first", response.HTTPBadRequest},
		{"401 no token", authed, modernList, nil, 401, "bearer token", response.HTTPUnauthorized},
		{"401 a wrong token", authed, modernList, bearer("not-the-token-0123456789"), 401, "", response.HTTPUnauthorized},
		{"401 another scheme", authed, modernList, func(r *http.Request) { r.Header.Set("Authorization", "Basic "+tokenA) }, 401, "", response.HTTPUnauthorized},
		{"200 a caller's token", authed, modernList, bearer(tokenA), 200, `"tools"`, ""},
		{"403 a foreign Host", plain, modernList, func(r *http.Request) { r.Host = "evil.example" }, 403, "", response.HTTPForbidden},
		{"403 a foreign Origin", plain, modernList, func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403, "", response.HTTPForbidden},
		{"200 a loopback Origin", plain, modernList, func(r *http.Request) { r.Header.Set("Origin", "http://localhost:3000") }, 200, "", ""},
		{"404 another path", plain, modernList, func(r *http.Request) { r.URL.Path = "/other" }, 404, "", response.HTTPNotFound},
		{"405 another method", plain, modernList, func(r *http.Request) { r.Method = http.MethodPut }, 405, "", ""},
		{"406 Accept without text/event-stream", plain, modernList, func(r *http.Request) { r.Header.Set("Accept", "application/json") }, 406, "", response.HTTPNotAcceptable},
		{"406 Accept without application/json", plain, modernList, func(r *http.Request) { r.Header.Set("Accept", "text/event-stream") }, 406, "", response.HTTPNotAcceptable},
		{"413 a declared body over LIM-H2", plain, strings.Repeat(" ", limits.H2BodyBytes+1), nil, 413, "", response.HTTPBodyTooLarge},
		{"415 another Content-Type", plain, modernList, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, 415, "", ""},
		{"415 not a JSON-RPC message", plain, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, func(r *http.Request) {
			r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			r.Header.Set("Mcp-Method", "tools/list")
		}, 400, "", response.HTTPBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.f.metrics.HTTPRefusedCount(string(tc.reason))
			resp, body := tc.f.post(t, tc.body, tc.edit)
			if resp.StatusCode != tc.status || !strings.Contains(body, tc.want) {
				t.Fatalf("got %d %q, want %d with %q", resp.StatusCode, body, tc.status, tc.want)
			}
			if tc.reason != "" {
				if got := tc.f.metrics.HTTPRefusedCount(string(tc.reason)); got != before+1 {
					t.Errorf("%s counted %v times, want %v", tc.reason, got, before+1)
				}
			}
			if tc.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
}

// raw opens a connection to f from the loopback address src ("" for the
// default) and writes data.
func (f *fixture) raw(t *testing.T, src, data string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second}
	if src != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
	}
	c, err := d.Dial("tcp", f.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if data != "" {
		if _, err := io.WriteString(c, data); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// answer reads the status line of the connection's answer; "" when the
// connection closes unanswered. It waits at most limit.
func answer(t *testing.T, c net.Conn, limit time.Duration) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(limit))
	line, err := bufio.NewReader(c).ReadString('\n')
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("no answer and no close within %v", limit)
	}
	return strings.TrimSpace(line)
}

func head(body string) string {
	return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", len(body))
}

// modernRaw is a whole tools/list request of the 2026-07-28 revision.
func modernRaw() string {
	return "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: " + fmt.Sprint(len(modernList)) + "\r\n\r\n" + modernList
}

func TestConnectionRows(t *testing.T) {
	short := func(o *gate.Options) {
		o.RequestTime = 300 * time.Millisecond
		o.ProtocolWait = 200 * time.Millisecond
	}
	f := serve(t, short)
	t.Run("408 headers that outlive LIM-H5", func(t *testing.T) {
		c := f.raw(t, "", "POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
		if got := answer(t, c, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 408") {
			t.Errorf("got %q", got)
		}
	})
	t.Run("408 a body that outlives LIM-H5", func(t *testing.T) {
		before := f.metrics.HTTPRefusedCount(string(response.HTTPRequestTimeout))
		c := f.raw(t, "", strings.Replace(head(modernList), "Content-Length: ", "Content-Length: 1", 1)+"{")
		if got := answer(t, c, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 408") {
			t.Errorf("got %q", got)
		}
		if f.metrics.HTTPRefusedCount(string(response.HTTPRequestTimeout)) != before+1 {
			t.Error("not counted")
		}
	})
	t.Run("413 a chunked body over LIM-H2", func(t *testing.T) {
		f := serve(t) // LIM-H5 of 30 s: a megabyte has time to arrive on a busy machine
		c := f.raw(t, "", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		go func() {
			chunk := fmt.Sprintf("%x\r\n%s\r\n", 64<<10, strings.Repeat(" ", 64<<10))
			for range limits.H2BodyBytes/(64<<10) + 2 {
				if _, err := io.WriteString(c, chunk); err != nil {
					return
				}
			}
		}()
		if got := answer(t, c, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 413") {
			t.Errorf("got %q", got)
		}
	})
	t.Run("431 headers over LIM-H7", func(t *testing.T) {
		c := f.raw(t, "", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Pad: "+strings.Repeat("a", limits.H7HeaderBytes)+"\r\n\r\n")
		if got := answer(t, c, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 431") {
			t.Errorf("got %q", got)
		}
	})
	t.Run("headers just under LIM-H7 are read", func(t *testing.T) {
		req := "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: " + fmt.Sprint(len(modernList)) + "\r\nX-Pad: "
		pad := limits.H7HeaderBytes - len(req) - len("\r\n\r\n") - 100
		c := f.raw(t, "", req+strings.Repeat("a", pad)+"\r\n\r\n"+modernList)
		if got := answer(t, c, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 200") {
			t.Errorf("got %q", got)
		}
	})
	for _, tc := range []struct{ name, data string }{
		{"no byte", ""},
		{"the start of the HTTP/2 preface", "PRI * HTTP/2.0\r\n"},
	} {
		t.Run("idle_connection: "+tc.name, func(t *testing.T) {
			before := f.metrics.HTTPRefusedCount(string(response.HTTPIdleConnection))
			c := f.raw(t, "", tc.data)
			if got := answer(t, c, 5*time.Second); got != "" {
				t.Errorf("answered %q, want closed", got)
			}
			if f.metrics.HTTPRefusedCount(string(response.HTTPIdleConnection)) != before+1 {
				t.Error("not counted")
			}
			if strings.Contains(f.log.String(), string(response.HTTPIdleConnection)) {
				t.Error("an idle connection wrote a log line")
			}
		})
	}
}

func TestHTTP2WithPriorKnowledge(t *testing.T) {
	f := serve(t)
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	client := &http.Client{Transport: &http.Transport{Protocols: p}}
	req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(modernList))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/list")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.ProtoMajor != 2 || resp.StatusCode != 200 || !strings.Contains(string(body), `"tools"`) {
		t.Errorf("got %s %d %q", resp.Proto, resp.StatusCode, body)
	}
}

func TestConnectionBounds(t *testing.T) {
	f := serve(t, func(o *gate.Options) {
		o.Connections = 4
		o.HTTP.ConnectionsPerSource = 2
	})
	// Two stalled connections from one source fill its share: a third
	// from it is closed unanswered, one from another source is served.
	f.raw(t, "127.0.0.1", "")
	f.raw(t, "127.0.0.1", "")
	before := f.metrics.HTTPRefusedCount(string(response.HTTPTooManyConnections))
	over := f.raw(t, "127.0.0.1", "")
	if got := answer(t, over, 5*time.Second); got != "" {
		t.Errorf("a connection over the source's share answered %q", got)
	}
	other := f.raw(t, "127.0.0.2", modernRaw())
	if got := answer(t, other, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Errorf("another source: %q", got)
	}
	f.raw(t, "127.0.0.3", "")
	f.raw(t, "127.0.0.4", "")
	full := f.raw(t, "127.0.0.5", "")
	if got := answer(t, full, 5*time.Second); got != "" {
		t.Errorf("a connection over LIM-H1 answered %q", got)
	}
	if got := f.metrics.HTTPRefusedCount(string(response.HTTPTooManyConnections)); got < before+2 {
		t.Errorf("too_many_connections counted %v, want %v", got, before+2)
	}
	if !strings.Contains(f.log.String(), `"event":"http_refused","reason":"too_many_connections"`) {
		t.Error("too_many_connections not logged")
	}
}

// legacySession opens a session of a handshake-based revision with tok
// ("" for none) and returns its ID, or the status when refused.
func (f *fixture) legacySession(t *testing.T, tok string) (string, *http.Response) {
	t.Helper()
	var edit func(*http.Request)
	if tok != "" {
		edit = bearer(tok)
	}
	resp, _ := f.post(t, initialize, edit)
	return resp.Header.Get("Mcp-Session-Id"), resp
}

func TestLegacySessionsAreBoundedAndOwned(t *testing.T) {
	f := serve(t, withTokens, func(o *gate.Options) { o.LegacySessions = 2 })
	a1, _ := f.legacySession(t, tokenA)
	f.legacySession(t, tokenB)
	if a1 == "" {
		t.Fatal("no session ID")
	}
	_, resp := f.legacySession(t, tokenA)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "30" {
		t.Fatalf("a third session: %d Retry-After %q, want 503 and 30", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if f.metrics.HTTPRefusedCount(string(response.HTTPSessionLimit)) != 1 {
		t.Error("session_limit not counted")
	}
	// A session is its caller's: another caller naming it is not served.
	withSession := func(tok string) func(*http.Request) {
		return func(r *http.Request) {
			bearer(tok)(r)
			r.Header.Set("Mcp-Session-Id", a1)
			r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
	}
	f.post(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, withSession(tokenA))
	if resp, body := f.post(t, legacyList, withSession(tokenA)); resp.StatusCode != 200 || !strings.Contains(body, `"tools"`) {
		t.Errorf("the owner: %d %q", resp.StatusCode, body)
	}
	unknown := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`
	if resp, body := f.post(t, unknown, withSession(tokenA)); resp.StatusCode != 200 || !strings.Contains(body, "-32602") {
		t.Errorf("a legacy call of an unknown tool: %d %q, want 200 with JSON-RPC -32602", resp.StatusCode, body)
	}
	if resp, _ := f.post(t, legacyList, withSession(tokenB)); resp.StatusCode != 404 {
		t.Errorf("another caller: %d, want 404", resp.StatusCode)
	}
	// Closing a session frees its place.
	req, _ := http.NewRequest(http.MethodDelete, f.url, nil)
	withSession(tokenA)(req)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if id, resp := f.legacySession(t, tokenA); id == "" {
		t.Errorf("after a DELETE: %d", resp.StatusCode)
	}
}

// TestOneCallerCannotHoldEveryLegacySession: a caller sends initialize
// requests for more sessions than it may hold, all at once; it opens
// exactly what it may hold and is answered 503 with Retry-After beyond
// it. With two callers configured that is its share of LIM-H6, and the
// other caller still opens sessions, up to its own share; with one caller
// it is LIM-H6.
func TestOneCallerCannotHoldEveryLegacySession(t *testing.T) {
	half := (limits.H6LegacySessions + 1) / 2
	for _, tc := range []struct {
		name          string
		opts          []func(*gate.Options)
		flooder, then string // tokens; "" is the loopback caller
		holds         int
	}{
		{"two callers: half of LIM-H6 each", []func(*gate.Options){withTokens}, tokenA, tokenB, half},
		{"one caller: all of LIM-H6", nil, "", "", limits.H6LegacySessions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := serve(t, append(tc.opts, func(o *gate.Options) { o.HTTP.ConnectionsPerSource = limits.H1Connections })...)
			const beyond = 8
			opened, refused := f.legacySessionsAtOnce(t, tc.flooder, tc.holds+beyond)
			if opened != tc.holds || refused != beyond {
				t.Fatalf("the flooding caller opened %d sessions and was refused %d times, want %d and %d", opened, refused, tc.holds, beyond)
			}
			if _, resp := f.legacySession(t, tc.flooder); resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("the flooding caller once more: %d, want 503", resp.StatusCode)
			}
			if tc.then == "" {
				return
			}
			for i := range limits.H6LegacySessions - tc.holds {
				if id, resp := f.legacySession(t, tc.then); id == "" {
					t.Fatalf("the other caller's session %d: %d, want a session", i+1, resp.StatusCode)
				}
			}
		})
	}
}

// legacySessionsAtOnce sends n initialize requests with tok at once and
// counts the sessions opened and the 503 answers with Retry-After.
func (f *fixture) legacySessionsAtOnce(t *testing.T, tok string, n int) (opened, refused int) {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range n {
		wg.Go(func() {
			id, resp := f.legacySession(t, tok)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case id != "":
				opened++
			case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == gate.RetryAfterSessions:
				refused++
			default:
				t.Errorf("initialize: %d without a session", resp.StatusCode)
			}
		})
	}
	wg.Wait()
	return opened, refused
}

func TestTheCallerIsInTheCallsLogLine(t *testing.T) {
	f := serve(t, withTokens)
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"engine_status","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	resp, body := f.post(t, call, func(r *http.Request) {
		bearer(tokenB)(r)
		r.Header.Set("Mcp-Name", "engine_status")
		r.Header.Set(gate.CallerHeader, "a") // a client cannot name itself
	})
	if resp.StatusCode != 200 || !strings.Contains(body, `"outcome"`) {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if !strings.Contains(f.log.String(), `"caller":"b"`) || strings.Contains(f.log.String(), `"caller":"a"`) {
		t.Errorf("log: %s", f.log.String())
	}
}

func TestShutdownEndsStandaloneStreams(t *testing.T) {
	f := serve(t)
	id, _ := f.legacySession(t, "")
	req, _ := http.NewRequest(http.MethodGet, f.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", resp, err)
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- f.srv.Shutdown() }()
	io.Copy(io.Discard, resp.Body)
	if err := <-done; err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("shutdown took %v with a stream open", took)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := (&net.Dialer{}).DialContext(ctx, "tcp", f.addr); err == nil {
		t.Error("still accepting after shutdown")
	}
}

// TestAStalledFloodLocksNobodyOut opens 1,000 connections from one source,
// half sending nothing and half dribbling headers, and checks that a
// call from another source is still answered promptly.
func TestAStalledFloodLocksNobodyOut(t *testing.T) {
	f := serve(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for i := range 1000 {
		c, err := net.DialTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}, net.TCPAddrFromAddrPort(mustAddrPort(t, f.addr)))
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		if i%2 == 0 {
			continue // sends nothing
		}
		wg.Go(func() { // dribbles a header, one byte at a time
			io.WriteString(c, "POST /mcp HTTP/1.1\r\nX-Slow: ")
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					if _, err := c.Write([]byte("a")); err != nil {
						return
					}
				}
			}
		})
	}
	start := time.Now()
	c := f.raw(t, "127.0.0.2", modernRaw())
	if got := answer(t, c, 5*time.Second); !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Fatalf("the legitimate call: %q", got)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the legitimate call took %v", took)
	}
	if n := f.metrics.HTTPRefusedCount(string(response.HTTPTooManyConnections)); n < 1000-float64(limits.H1Connections/4) {
		t.Errorf("too_many_connections counted %v", n)
	}
	if lines := strings.Count(f.log.String(), "too_many_connections"); lines > 50 {
		t.Errorf("%d log lines for one flood", lines)
	}
}

func mustAddrPort(t *testing.T, s string) netip.AddrPort {
	t.Helper()
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		t.Fatal(err)
	}
	return ap
}

// TestAFloodingCallerDoesNotStarveAnother: caller a sends calls far beyond
// its LIM-C6 and LIM-C7 at once; caller b is answered all the same.
func TestAFloodingCallerDoesNotStarveAnother(t *testing.T) {
	f := serve(t, withTokens, func(o *gate.Options) { o.HTTP.ConnectionsPerSource = limits.H1Connections })
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"engine_status","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	as := func(tok string) func(*http.Request) {
		return func(r *http.Request) {
			bearer(tok)(r)
			r.Header.Set("Mcp-Name", "engine_status")
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused := 0
	for range limits.C6CallsPerMinute + 80 { // at least 40 over LIM-C6 even if the flood takes 20 s
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(call))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			as(tokenA)(req)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("a flooding call: %v", err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), `"kind":"unavailable"`) {
				mu.Lock()
				refused++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if refused < 40 {
		t.Errorf("the flooding caller was refused %d times, want at least 40", refused)
	}
	resp, body := f.post(t, call, as(tokenB))
	if resp.StatusCode != 200 || !strings.Contains(body, `"outcome":"ok"`) {
		t.Errorf("the other caller: %d %q", resp.StatusCode, body)
	}
}

// TestAStreamLivesAtMostLIMH4: a standalone stream is ended at its
// lifetime.
func TestAStreamLivesAtMostLIMH4(t *testing.T) {
	f := serve(t, func(o *gate.Options) { o.StreamLifetime = 300 * time.Millisecond })
	id, _ := f.legacySession(t, "")
	req, _ := http.NewRequest(http.MethodGet, f.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body) // returns when the server ends the stream
	resp.Body.Close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the stream lived %v", took)
	}
}
