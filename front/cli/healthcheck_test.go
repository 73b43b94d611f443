package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/shared/contract"
)

// testEnv is the environment of the commands run here: GOMEMLIMIT set, so
// that serve leaves the test process's memory limit alone.
func testEnv(name string) string {
	if name == "GOMEMLIMIT" {
		return "off"
	}
	return ""
}

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

func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, testEnv)
	return code, out.String(), errb.String()
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeEgress answers /healthz on a Unix socket as rypsok-egress does; stop
// closes it.
func fakeEgress(t *testing.T) (socket string, stop func()) {
	t.Helper()
	socket = filepath.Join(t.TempDir(), "egress.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != contract.HealthPath {
			contract.WriteRefusal(w, contract.ReasonContract)
			return
		}
		w.Header().Set(contract.HeaderVersion, fmt.Sprint(contract.Version))
		io.WriteString(w, "ok\n")
	})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			srv.Close()
			<-done
		})
	}
	t.Cleanup(stop)
	return socket, stop
}

// startServe runs `rypsok serve --transport http --config cfg` in process
// until the test ends, and waits until `rypsok healthcheck` passes.
func startServe(t *testing.T, cfg string) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	exited := make(chan int, 1)
	go func() {
		exited <- Main(ctx, []string{"serve", "--transport", "http", "--config", cfg}, Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: logs}, testEnv)
	}()
	t.Cleanup(func() {
		stop()
		<-exited
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, _, errs := run("healthcheck", "--config", cfg, "--egress=false")
		if code == ExitOK {
			return
		}
		select {
		case code := <-exited:
			t.Fatalf("serve exited %d: %s", code, logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve not healthy after 20 s: %s\nlogs: %s", errs, logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHealthcheckOfTheSidecarDeployment is the pod's case: serve on all
// interfaces with a token from a file, the egress at a shared socket.
func TestHealthcheckOfTheSidecarDeployment(t *testing.T) {
	dir := t.TempDir()
	socket, stopEgress := fakeEgress(t)
	port := freePort(t)
	token := writeFile(t, dir, "token", "the-token-of-the-pod-0123456789\n")
	cfg := writeFile(t, dir, "rypsok.toml", fmt.Sprintf(
		"config_version = 1\n[service]\nlisten = \"0.0.0.0:%s\"\ntoken_file = %q\n[egress]\nsocket = %q\n", port, token, socket))
	startServe(t, cfg)

	code, out, errs := run("healthcheck", "--config", cfg)
	if code != ExitOK {
		t.Fatalf("exit %d, want 0; stderr %q", code, errs)
	}
	for _, want := range []string{"127.0.0.1:" + port, "healthy", "caller default", "egress at " + socket + " answers"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout %q lacks %q", out, want)
		}
	}

	// Another token, at the same listener: 401, unhealthy.
	other := writeFile(t, dir, "other-token", "another-token-0123456789abcdef")
	otherCfg := writeFile(t, dir, "other.toml", fmt.Sprintf(
		"config_version = 1\n[service]\nlisten = \"0.0.0.0:%s\"\ntoken_file = %q\n[egress]\nsocket = %q\n", port, other, socket))
	if code, out, errs := run("healthcheck", "--config", otherCfg); code != ExitInvalid || out != "" || !strings.Contains(errs, "HTTP 401") {
		t.Errorf("a wrong token: exit %d, stdout %q, stderr %q; want 1 and HTTP 401", code, out, errs)
	}

	// The egress gone: not ready; alive all the same (--egress=false).
	stopEgress()
	if code, _, errs := run("healthcheck", "--config", cfg); code != ExitInvalid || !strings.Contains(errs, "does not answer") {
		t.Errorf("without an egress: exit %d, stderr %q; want 1 and the egress named", code, errs)
	}
	if code, out, errs := run("healthcheck", "--config", cfg, "--egress=false"); code != ExitOK || !strings.Contains(out, "not checked") {
		t.Errorf("--egress=false without an egress: exit %d, stdout %q, stderr %q; want 0", code, out, errs)
	}

	// The Secret rotated under a running process: the token it presents
	// is no longer the one the listener knows.
	if err := os.WriteFile(token, []byte("a-rotated-token-0123456789abcdef"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run("healthcheck", "--config", cfg, "--egress=false"); code != ExitInvalid || !strings.Contains(errs, "HTTP 401") {
		t.Errorf("a rotated token: exit %d, stderr %q; want 1 and HTTP 401", code, errs)
	}
}

// TestHealthcheckOfALoopbackListener: no token, no sidecar (serve starts
// its own egress, which the healthcheck cannot see).
func TestHealthcheckOfALoopbackListener(t *testing.T) {
	dir := t.TempDir()
	socket, _ := fakeEgress(t) // serve in sidecar mode, so that it starts no egress
	port := freePort(t)
	cfg := writeFile(t, dir, "rypsok.toml", fmt.Sprintf("config_version = 1\n[service]\nlisten = \"127.0.0.1:%s\"\n[egress]\nsocket = %q\n", port, socket))
	startServe(t, cfg)
	local := writeFile(t, dir, "local.toml", fmt.Sprintf("config_version = 1\n[service]\nlisten = \"127.0.0.1:%s\"\n", port))
	code, out, errs := run("healthcheck", "--config", local)
	if code != ExitOK || !strings.Contains(out, "caller local") || !strings.Contains(out, "started by serve itself") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// impostor serves answer to every request on a loopback port and returns
// a configuration whose listener is that port.
func impostor(t *testing.T, contentType, answer string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", contentType)
		io.WriteString(w, answer)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return writeFile(t, t.TempDir(), "rypsok.toml", fmt.Sprintf("config_version = 1\n[service]\nlisten = %q\n", ln.Addr().String()))
}

func TestHealthcheckReadsTheAnswer(t *testing.T) {
	const discover = `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":%q,"version":"1"}},"supportedVersions":[%s],"capabilities":{"tools":{}}}}`
	rypsok := fmt.Sprintf(discover, "rypsok", `"2026-07-28","2025-11-25"`)
	for _, tc := range []struct {
		name, contentType, answer string
		want                      string // "" = healthy
	}{
		{"JSON", "application/json", rypsok, ""},
		{"an event stream", "text/event-stream", "event: message\nid: 1\ndata: " + rypsok + "\n\n", ""},
		{"another server", "application/json", fmt.Sprintf(discover, "other", `"2026-07-28"`), `"other", not rypsok`},
		{"an older server", "application/json", fmt.Sprintf(discover, "rypsok", `"2025-11-25"`), "not among the revisions"},
		{"a JSON-RPC error", "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found"}}`, "JSON-RPC error -32601"},
		{"not JSON", "application/json", "<html>", "not a JSON-RPC message"},
		{"an empty stream", "text/event-stream", ": keep-alive\n\n", "without a message"},
		{"a page", "text/html", "<html>", "unexpected Content-Type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run("healthcheck", "--config", impostor(t, tc.contentType, tc.answer))
			switch {
			case tc.want == "" && code != ExitOK:
				t.Fatalf("exit %d, want 0; stderr %q", code, errs)
			case tc.want != "" && (code != ExitInvalid || !strings.Contains(errs, tc.want)):
				t.Fatalf("exit %d, stderr %q; want 1 and %q", code, errs, tc.want)
			}
		})
	}
}

func TestHealthcheckFails(t *testing.T) {
	dir := t.TempDir()
	nobody := writeFile(t, dir, "nobody.toml", fmt.Sprintf("config_version = 1\n[service]\nlisten = \"127.0.0.1:%s\"\n", freePort(t)))
	bad := writeFile(t, dir, "bad.toml", "config_version = 1\n[service]\nnope = 1\n")
	missing := writeFile(t, dir, "missing.toml", "config_version = 1\n[service]\nlisten = \"0.0.0.0:8765\"\ntoken_file = \"/nonexistent/token\"\n")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"nothing listening", []string{"--config", nobody}, ExitInvalid, "connection refused"},
		{"an invalid configuration", []string{"--config", bad}, ExitInvalid, "service.nope"},
		{"an unreadable token", []string{"--config", missing}, ExitInvalid, "token_file cannot be read"},
		{"an extra argument", []string{"--config", nobody, "now"}, ExitUsage, "unexpected argument"},
		{"no timeout", []string{"--timeout", "0s"}, ExitUsage, "positive --timeout"},
		{"an unknown flag", []string{"--url", "http://x"}, ExitUsage, "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(append([]string{"healthcheck"}, tc.args...)...)
			if code != tc.code || out != "" || !strings.Contains(errs, tc.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errs, tc.code, tc.stderr)
			}
		})
	}
}

func TestLoopbackOf(t *testing.T) {
	for listen, want := range map[string]string{
		"127.0.0.1:8765":        "127.0.0.1:8765",
		"127.0.0.2:8765":        "127.0.0.2:8765",
		"0.0.0.0:8765":          "127.0.0.1:8765",
		":8765":                 "127.0.0.1:8765",
		"localhost:8765":        "127.0.0.1:8765",
		"[::]:8765":             "[::1]:8765",
		"[::1]:8765":            "[::1]:8765",
		"[::ffff:127.0.0.1]:80": "127.0.0.1:80",
		"10.0.0.7:8765":         "", // another address: never dialled
		"[fd00::1]:8765":        "",
		"127.0.0.1:0":           "", // a port chosen at start
		"127.0.0.1":             "",
	} {
		got, err := loopbackOf(listen)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("%s: got %q, %v; want %q", listen, got, err, want)
		}
	}
}
