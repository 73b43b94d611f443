package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/shared/limits"
)

// logWatch collects a process's stderr and wakes those waiting for a line.
type logWatch struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // closed and replaced on every write
}

func newLogWatch() *logWatch { return &logWatch{changed: make(chan struct{})} }

func (l *logWatch) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

func (l *logWatch) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// line returns the first complete line holding every one of parts.
func (l *logWatch) line(parts ...string) (string, chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sc := bufio.NewScanner(bytes.NewReader(l.buf.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(sc.Text(), p)
		}
		if ok && strings.HasSuffix(strings.TrimSpace(sc.Text()), "}") {
			return sc.Text(), l.changed
		}
	}
	return "", l.changed
}

// httpRypsok is a running `rypsok serve --transport http`.
type httpRypsok struct {
	cmd    *exec.Cmd
	logs   *logWatch
	port   string        // the bound port, from the serving line
	exited chan struct{} // closed once the process has exited
	err    error         // Wait's result, once exited
}

// serveHTTP starts `rypsok serve --transport http` with the configuration
// toml and env, and waits for its serving line. At cleanup a process still
// running is sent SIGTERM, then killed.
func serveHTTP(t *testing.T, toml string, env ...string) *httpRypsok {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startRypsok(t, rypsok(context.Background(), env, "serve", "--transport", "http", "--config", cfg))
	line := p.waitLog(t, 20*time.Second, `"event":"serving"`, `"transport":"http"`)
	var serving struct {
		Listen string `json:"listen"`
	}
	if err := json.Unmarshal([]byte(line), &serving); err != nil {
		t.Fatalf("serving line %q: %v", line, err)
	}
	_, port, err := net.SplitHostPort(serving.Listen)
	if err != nil || port == "0" {
		t.Fatalf("serving line %q: no bound port", line)
	}
	p.port = port
	return p
}

// startRypsok starts cmd with its stderr watched. At cleanup a process
// still running is sent SIGTERM, then killed.
func startRypsok(t *testing.T, cmd *exec.Cmd) *httpRypsok {
	t.Helper()
	p := &httpRypsok{cmd: cmd, logs: newLogWatch(), exited: make(chan struct{})}
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
			return
		default:
		}
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(20 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// waitLog waits for a stderr line holding every one of parts.
func (p *httpRypsok) waitLog(t *testing.T, limit time.Duration, parts ...string) string {
	t.Helper()
	deadline := time.After(limit)
	for {
		line, changed := p.logs.line(parts...)
		if line != "" {
			return line
		}
		select {
		case <-changed:
		case <-p.exited:
			if line, _ := p.logs.line(parts...); line != "" {
				return line
			}
			t.Fatalf("rypsok exited (%v) without a line holding %q:\n%s", p.err, parts, p.logs)
		case <-deadline:
			t.Fatalf("no line holding %q within %v:\n%s", parts, limit, p.logs)
		}
	}
}

// authTransport adds a bearer token (when set) to every request and
// records the status of every response, and the failure of a GET (the
// standalone stream's reconnection).
type authTransport struct {
	token string
	base  *http.Transport

	mu        sync.Mutex
	statuses  []int
	getFailed chan struct{} // closed at the first GET that fails
	failOnce  sync.Once
}

func newAuthTransport(token string) *authTransport {
	return &authTransport{token: token, base: &http.Transport{}, getFailed: make(chan struct{})}
}

func (a *authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if a.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+a.token)
	}
	resp, err := a.base.RoundTrip(r)
	if err != nil && r.Method == http.MethodGet {
		a.failOnce.Do(func() { close(a.getFailed) })
	}
	if err == nil {
		a.mu.Lock()
		a.statuses = append(a.statuses, resp.StatusCode)
		a.mu.Unlock()
	}
	return resp, err
}

func (a *authTransport) seen() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]int(nil), a.statuses...)
}

// connectHTTP connects a go-sdk client to endpoint at the protocol
// revision version ("" for the SDK's latest); retries is the transport's
// MaxRetries (0 for the SDK's default).
func connectHTTP(ctx context.Context, endpoint string, rt *authTransport, version string, retries int) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	return client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: rt},
		MaxRetries: retries,
	}, opts)
}

// nonLoopbackIPv4 returns an IPv4 address of this machine that is not
// loopback, or "" when there is none.
func nonLoopbackIPv4() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

// modernCall is the body of a 2026-07-28 tools/call request.
func modernCall(id int, tool string, args map[string]any) []byte {
	b, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{
			"name": tool, "arguments": args,
			"_meta": map[string]any{
				"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
				"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "t", "version": "1"},
				"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			},
		},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// modernRequest is a raw 2026-07-28 tools/call request to endpoint.
func modernRequest(t *testing.T, endpoint string, id int, tool string, args map[string]any) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(modernCall(id, tool, args)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	return req
}

// egressTo is the [egress] section letting the egress reach an httptest
// server on loopback, in plain HTTP.
func egressTo(site *httptest.Server) string {
	port := site.URL[strings.LastIndexByte(site.URL, ':')+1:]
	return fmt.Sprintf("[egress]\ndns_servers = [\"127.0.0.1:1\"]\nallow_http = true\nallow = [\"127.0.0.1:%s\"]\n", port)
}

// toolResult decodes the JSON object of a tool result's text content.
func toolResult(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("a tool result without content")
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T, want text", res.Content[0])
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(text.Text), &obj); err != nil {
		t.Fatalf("tool result %q: %v", text.Text, err)
	}
	return obj
}

// TestM4OverHTTPWithABearerToken is the HTTP demonstration (docs/design:
// acceptance demonstrations): rypsok bound
// to every interface with a bearer token serves a go-sdk client that
// connects through the machine's non-loopback address with the token, at
// the stateless revision and at a handshake-based one; without the token
// (or with another) the client is refused 401, and a request with a
// foreign Origin or Host is refused 403.
func TestM4OverHTTPWithABearerToken(t *testing.T) {
	var raw [16]byte
	rand.Read(raw[:])
	token := hex.EncodeToString(raw[:])
	host := nonLoopbackIPv4()
	if host == "" {
		t.Log("no non-loopback IPv4 address: connecting through 127.0.0.1")
		host = "127.0.0.1"
	}
	toml := fmt.Sprintf("config_version = 1\n[service]\nlisten = \"0.0.0.0:0\"\ntoken_env = \"RYPSOK_TEST_TOKEN\"\nallowed_hosts = [%q]\n", host)
	p := serveHTTP(t, toml, "RYPSOK_TEST_TOKEN="+token)
	endpoint := "http://" + net.JoinHostPort(host, p.port) + "/mcp"
	t.Logf("endpoint %s", endpoint)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run("with the token at "+version, func(t *testing.T) {
			rt := newAuthTransport(token)
			defer rt.base.CloseIdleConnections()
			cs, err := connectHTTP(ctx, endpoint, rt, version, 0)
			if err != nil {
				t.Fatalf("connect to %s: %v (statuses %v)\n%s", endpoint, err, rt.seen(), p.logs)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("protocol revision %s, want %s", got, version)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			if got := strings.Join(names, ","); got != "engine_status,web_fetch,web_search" {
				t.Fatalf("tools %s", got)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "engine_status", Arguments: map[string]any{}})
			if err != nil {
				t.Fatalf("engine_status: %v", err)
			}
			if obj := toolResult(t, res); res.IsError || obj["outcome"] != "ok" {
				t.Fatalf("engine_status: %v", obj)
			}
		})
	}

	for _, tc := range []struct{ name, token string }{
		{"without a token", ""},
		{"with another token", strings.Repeat("x", 32)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := newAuthTransport(tc.token)
			defer rt.base.CloseIdleConnections()
			cs, err := connectHTTP(ctx, endpoint, rt, "", 0)
			if err == nil {
				cs.Close()
				t.Fatal("connected")
			}
			seen := rt.seen()
			if len(seen) == 0 {
				t.Fatalf("no response: %v", err)
			}
			for _, s := range seen {
				if s != http.StatusUnauthorized {
					t.Fatalf("statuses %v, want only 401: %v", seen, err)
				}
			}
		})
	}

	t.Run("a bare request without the token", func(t *testing.T) {
		req := modernRequest(t, endpoint, 1, "engine_status", map[string]any{})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("status %d, WWW-Authenticate %q; want 401 and a Bearer challenge", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	})

	for _, tc := range []struct {
		name   string
		setup  func(*http.Request)
		status int
	}{
		{"the token alone is enough", func(*http.Request) {}, http.StatusOK},
		{"a foreign Origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, http.StatusForbidden},
		{"a foreign Host", func(r *http.Request) { r.Host = "evil.example" }, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := modernRequest(t, endpoint, 1, "engine_status", map[string]any{})
			req.Header.Set("Authorization", "Bearer "+token)
			tc.setup(req)
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.status == http.StatusOK && !bytes.Contains(body, []byte(`\"outcome\":\"ok\"`)) {
				t.Errorf("answer %s, want engine_status's object", body)
			}
		})
	}

	if strings.Contains(p.logs.String(), token) {
		t.Error("the logs show the token")
	}
}

// TestANonLoopbackListenNeedsAToken: a listener beyond loopback without a
// bearer token is refused at start, and by check, naming service.listen.
func TestANonLoopbackListenNeedsAToken(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:8765"} {
		cfg := filepath.Join(t.TempDir(), "rypsok.toml")
		if err := os.WriteFile(cfg, []byte(fmt.Sprintf("config_version = 1\n[service]\nlisten = %q\n", listen)), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"serve", "--transport", "http", "--config", cfg},
			{"check", "--config", cfg},
		} {
			t.Run(listen+" "+args[0], func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				cmd := rypsok(ctx, nil, args...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 1 {
					t.Fatalf("exit %v, want 1; stderr:\n%s", err, stderr.String())
				}
				if !strings.Contains(stderr.String(), "service.listen") {
					t.Errorf("stderr does not name service.listen:\n%s", stderr.String())
				}
				if strings.Contains(stderr.String(), `"event":"serving"`) || stdout.Len() != 0 {
					t.Errorf("stdout %q, stderr:\n%s", stdout.String(), stderr.String())
				}
			})
		}
	}
}

// TestAClosedResponseStreamCancelsTheCall starts a web_fetch at the
// stateless revision of a page that never answers, then closes the
// connection: rypsok must cancel the call and the egress close its
// upstream connection, well before LIM-F5.
func TestAClosedResponseStreamCancelsTheCall(t *testing.T) {
	arrived := make(chan struct{}, 1)
	abandoned := make(chan time.Time, 1)
	stop := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/slow" {
			http.NotFound(w, r) // robots.txt too: everything allowed
			return
		}
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			abandoned <- time.Now()
		case <-stop:
		}
	}))
	t.Cleanup(site.Close) // last
	p := serveHTTP(t, "config_version = 1\n[service]\nlisten = \"127.0.0.1:0\"\n"+egressTo(site))
	t.Cleanup(func() { close(stop) }) // first: rypsok's drain need not wait for the page
	addr := net.JoinHostPort("127.0.0.1", p.port)

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := modernRequest(t, "http://"+addr+"/mcp", 1, "web_fetch", map[string]any{"url": site.URL + "/slow"})
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatalf("the page request never arrived:\n%s", p.logs)
	}
	closed := time.Now()
	conn.Close()
	select {
	case at := <-abandoned:
		if took := at.Sub(closed); took > 5*time.Second {
			t.Errorf("the upstream request ended %v after the client left", took)
		}
	case <-time.After(limits.F5FetchCallMax - 5*time.Second):
		t.Fatalf("the upstream request outlived the closed response stream by %v (LIM-F5 is %v):\n%s",
			time.Since(closed), limits.F5FetchCallMax, p.logs)
	}

	// rypsok goes on serving.
	resp, err := http.DefaultClient.Do(modernRequest(t, "http://"+addr+"/mcp", 2, "engine_status", map[string]any{}))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`\"outcome\":\"ok\"`)) {
		t.Fatalf("engine_status after the cancellation: %d %s", resp.StatusCode, body)
	}
}

// TestSIGTERMLetsAnHTTPCallInFlightFinish sends SIGTERM while a web_fetch
// over HTTP waits for its page, at the stateless revision and at a
// handshake-based one (whose client holds a standalone stream open): new
// connections are refused at once, the call still gets its answer, and
// rypsok exits 0 soon after.
func TestSIGTERMLetsAnHTTPCallInFlightFinish(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) { sigtermDuringACall(t, version) })
	}
}

func sigtermDuringACall(t *testing.T, version string) {
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Late news</title></head><body><article><h1>Late</h1>"+
			strings.Repeat("<p>The evening edition arrives after the presses have stopped, as it always does. </p>", 10)+
			"</article></body></html>")
	}))
	t.Cleanup(site.Close) // last
	p := serveHTTP(t, "config_version = 1\n[service]\nlisten = \"127.0.0.1:0\"\n"+egressTo(site))
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // first
	addr := net.JoinHostPort("127.0.0.1", p.port)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rt := newAuthTransport("")
	defer rt.base.CloseIdleConnections()
	// One retry: a client that gives its standalone stream one chance to
	// come back, so that the test need not outlast the SDK's default five.
	cs, err := connectHTTP(ctx, "http://"+addr+"/mcp", rt, version, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("protocol revision %s, want %s", got, version)
	}
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "web_fetch", Arguments: map[string]any{"url": site.URL + "/page"}})
		answered <- answer{res, err}
	}()
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatalf("the page request never arrived:\n%s", p.logs)
	}

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitLog(t, 10*time.Second, `"event":"draining"`)
	// The listener closes as the drain begins: wait for a refusal while
	// the call is still in flight.
	refused := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			refused = true
		case errors.Is(err, syscall.ECONNRESET):
			// queued as the listener closed, and reset with it: try again
		case err != nil:
			t.Fatalf("dial after SIGTERM: %v, want connection refused", err)
		default:
			c.Close()
		}
		if refused {
			break
		}
		select {
		case <-time.After(10 * time.Millisecond):
		case a := <-answered:
			t.Fatalf("the call was answered before its page was: %+v", a)
		}
	}
	if !refused {
		t.Fatal("new connections are still accepted 5 s after SIGTERM")
	}
	if version < "2026-07-28" {
		// The client holds a standalone stream. Should the drain end it
		// while the call is in flight, the client tries to reconnect (1 to
		// 2 s later) and is refused: keep the page's answer until then.
		select {
		case <-rt.getFailed:
			t.Log("the client's standalone stream was ended and its reconnection refused with the call in flight")
		case <-time.After(3 * time.Second):
		case a := <-answered:
			t.Fatalf("the call was answered before its page was: %+v", a)
		}
	}
	select {
	case a := <-answered:
		t.Fatalf("the call was answered before its page was: %+v", a)
	case <-p.exited:
		t.Fatalf("rypsok exited (%v) with a call in flight:\n%s", p.err, p.logs)
	default:
	}

	once.Do(func() { close(release) })
	select {
	case a := <-answered:
		if a.err != nil {
			t.Fatalf("the call in flight lost its answer: %v\n%s", a.err, p.logs)
		}
		obj := toolResult(t, a.res)
		if a.res.IsError || obj["outcome"] != "ok" || obj["title"] != "Late news" {
			t.Fatalf("web_fetch: %v", obj)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no answer:\n%s", p.logs)
	}
	select {
	case <-p.exited:
		if p.err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", p.err, p.logs)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("still running 5 s after its last call was answered:\n%s", p.logs)
	}
	checkEgressGone(t, p.logs.String())
}
