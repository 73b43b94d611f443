package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fakeWikipedia is a loopback Wikipedia answering like the MediaWiki
// action API (list=search, formatversion=2) and counting its requests.
type fakeWikipedia struct {
	srv      *httptest.Server
	requests atomic.Int64
}

func startFakeWikipedia(t *testing.T) *fakeWikipedia {
	t.Helper()
	f := &fakeWikipedia{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(map[string]any{
			"batchcomplete": true,
			"query": map[string]any{
				"searchinfo": map[string]any{"totalhits": 1},
				"search": []map[string]any{{
					"ns": 0, "title": "Go (programming language)", "pageid": 100,
					"snippet":   `<span class="searchmatch">Go</span> is a programming language`,
					"timestamp": "2026-08-09T02:18:33Z",
				}},
			},
		})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// port is the fake's loopback port.
func (f *fakeWikipedia) port() string {
	u, _ := url.Parse(f.srv.URL)
	return u.Port()
}

// lockedBuffer collects a process's stderr and closes ready at the first
// line naming the "ready" event.
type lockedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
	seen  bool
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if !b.seen && strings.Contains(b.buf.String(), `"event":"ready"`) {
		b.seen = true
		close(b.ready)
	}
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// externalEgress is a rypsok-egress started by the test itself, in the
// test's own network namespace.
type externalEgress struct {
	socket string
	cmd    *exec.Cmd
	logs   *lockedBuffer
	exited chan error
	once   sync.Once
}

// startEgress runs the built rypsok-egress admitting the fake as the
// wikipedia engine, and returns once it has written its ready line.
func startEgress(t *testing.T, fake *fakeWikipedia) *externalEgress {
	t.Helper()
	dir := t.TempDir()
	sock := filepath.Join(dir, "egress.sock")
	cfg := filepath.Join(dir, "egress.toml")
	toml := fmt.Sprintf("config_version = 1\n[listen]\nsocket = %q\n[dns]\nservers = [\"127.0.0.1:1\"]\n[engines.wikipedia]\nendpoint = %q\n",
		sock, fake.srv.URL+"/w")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	e := &externalEgress{socket: sock, logs: &lockedBuffer{ready: make(chan struct{})}, exited: make(chan error, 1)}
	e.cmd = exec.CommandContext(ctx, filepath.Join(bin, "rypsok-egress"), "--config", cfg)
	e.cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + os.TempDir()}
	e.cmd.Stderr = e.logs
	if err := e.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { e.exited <- e.cmd.Wait() }()
	t.Cleanup(func() { e.stop() })
	select {
	case <-e.logs.ready:
		return e
	case err := <-e.exited:
		e.exited <- err
		t.Fatalf("rypsok-egress exited before ready: %v\n%s", err, e.logs)
	case <-time.After(20 * time.Second):
		t.Fatalf("rypsok-egress not ready after 20 s:\n%s", e.logs)
	}
	return nil
}

// stop ends the egress with SIGTERM and returns its logs, complete.
func (e *externalEgress) stop() (string, error) {
	var err error
	e.once.Do(func() {
		e.cmd.Process.Signal(syscall.SIGTERM)
		err = <-e.exited
	})
	return e.logs.String(), err
}

// requireUnshare returns the path of util-linux's unshare, failing the
// test (never skipping it) when the network namespace cannot be made.
func requireUnshare(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatal("this test runs rypsok in a network namespace and needs util-linux's unshare (apt-get install util-linux; .ci/run installs it) and root: " + err.Error())
	}
	if os.Geteuid() != 0 {
		t.Fatalf("this test runs rypsok in a network namespace (unshare --net) and needs root (CAP_SYS_ADMIN); running as uid %d. Run it as root, as CI does.", os.Geteuid())
	}
	return path
}

// inNetns returns a command running argv in a fresh network namespace
// (only a loopback interface, down): no network at all.
func inNetns(ctx context.Context, unshare string, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, unshare, append([]string{"--net"}, argv...)...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + os.TempDir()}
	return cmd
}

// searchOutput is the part of web_search's response object checked here.
type searchOutput struct {
	Outcome string `json:"outcome"`
	Results []struct {
		URL     string   `json:"url"`
		Engines []string `json:"engines"`
	} `json:"results"`
}

// checkSearch checks a `rypsok call web_search` run that should have
// reached the fake Wikipedia once.
func checkSearch(t *testing.T, err error, stdout, stderr string, fake *fakeWikipedia) {
	t.Helper()
	if err != nil {
		t.Fatalf("rypsok call: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	var out searchOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("stdout is no response object: %v\n%s", err, stdout)
	}
	if out.Outcome != "ok" || len(out.Results) != 1 {
		t.Fatalf("want outcome ok and one result, got:\n%s\nstderr:\n%s", stdout, stderr)
	}
	r := out.Results[0]
	if r.URL != "https://en.wikipedia.org/wiki/Go_(programming_language)" || strings.Join(r.Engines, ",") != "wikipedia" {
		t.Errorf("result url %q engines %v: want the article's canonical URL, engines [wikipedia]", r.URL, r.Engines)
	}
	if n := fake.requests.Load(); n != 1 {
		t.Errorf("the fake Wikipedia saw %d requests, want 1", n)
	}
}

// TestNoNetworkOfItsOwn runs `rypsok call web_search` in a network
// namespace with no network, the egress outside it: the search succeeds
// through the egress's Unix socket (a path, which a network namespace
// does not cut), while the same namespace cannot open a TCP connection to
// the fake engine. So rypsok reaches the network only through the egress.
func TestNoNetworkOfItsOwn(t *testing.T) {
	unshare := requireUnshare(t)
	fake := startFakeWikipedia(t)
	egress := startEgress(t, fake)

	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf("config_version = 1\n[egress]\nsocket = %q\n[engines.wikipedia]\ntype = \"wikipedia\"\nendpoint = %q\n",
		egress.socket, fake.srv.URL+"/w")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	cmd := inNetns(ctx, unshare, filepath.Join(bin, "rypsok"), "call", "web_search", `{"query":"golang"}`, "--config", cfg)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	checkSearch(t, err, stdout.String(), stderr.String(), fake)

	logs, err := egress.stop()
	if err != nil {
		t.Errorf("rypsok-egress exit after SIGTERM: %v", err)
	}
	if !hasLine(logs, `"engine":"wikipedia"`, `"decision":"allow"`) {
		t.Errorf("the egress logged no allowed wikipedia request:\n%s", logs)
	}

	// The namespace really has no network: the fake, reachable from here,
	// cannot be reached from inside.
	probe := "exec 3<>/dev/tcp/127.0.0.1/" + fake.port()
	if out, err := exec.CommandContext(ctx, "bash", "-c", probe).CombinedOutput(); err != nil {
		t.Fatalf("outside the namespace the fake should be reachable: %v\n%s", err, out)
	}
	out, err := inNetns(ctx, unshare, "bash", "-c", probe).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("inside the namespace a TCP connection to the fake succeeded (%v): the namespace has a network\n%s", err, out)
	}
	if !strings.Contains(string(out), "unreachable") {
		t.Errorf("inside the namespace the connection failed, but not for want of a network:\n%s", out)
	}
}

// hasLine reports whether a line of logs holds every one of parts.
func hasLine(logs string, parts ...string) bool {
	for _, line := range strings.Split(logs, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestCallSearchesThroughItsOwnEgress is the one-command path: `rypsok
// call web_search` with no [egress] socket starts its own rypsok-egress,
// and the search reaches the fake through it.
func TestCallSearchesThroughItsOwnEgress(t *testing.T) {
	fake := startFakeWikipedia(t)
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf("config_version = 1\n[egress]\ndns_servers = [\"127.0.0.1:1\"]\n[engines.wikipedia]\ntype = \"wikipedia\"\nendpoint = %q\n",
		fake.srv.URL+"/w")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := rypsok(ctx, nil, "call", "web_search", `{"query":"golang"}`, "--config", cfg)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	checkSearch(t, err, stdout.String(), stderr.String(), fake)
	if !hasLine(stderr.String(), `"service":"rypsok-egress"`, `"engine":"wikipedia"`, `"decision":"allow"`) {
		t.Errorf("rypsok's own egress logged no allowed wikipedia request:\n%s", stderr.String())
	}
	checkEgressGone(t, stderr.String())
}
