package launcher

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// Executables built or written by TestMain.
var (
	egressBin string // the real rypsok-egress
	crashBin  string // exits 3 at once, after one stderr line
	hangBin   string // never becomes ready; SIGTERM stops it
	deafBin   string // ignores SIGTERM, then says it is ready (it is not)
)

// minimalConfig is an egress configuration for loopback tests (its DNS
// server is never asked).
const minimalConfig = "config_version = 1\n[dns]\nservers = [\"127.0.0.1:53\"]\n"

// TestMain builds the egress and writes the fake executables before any
// test starts a process (a file written while another goroutine forks can
// fail to execute with ETXTBSY).
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if bin := os.Getenv(orphanEnv); bin != "" {
		return orphan(bin)
	}
	dir, err := os.MkdirTemp("", "launcher-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	egressBin = filepath.Join(dir, "rypsok-egress")
	out, err := exec.Command("go", "build", "-o", egressBin, "github.com/rypsok/rypsok/cmd/rypsok-egress").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building rypsok-egress: %v\n%s", err, out)
		return 1
	}
	scripts := map[*string]string{
		&crashBin: "#!/bin/sh\necho boom >&2\nexit 3\n",
		&hangBin:  "#!/bin/sh\nexec sleep 600\n",
		&deafBin:  "#!/bin/sh\ntrap '' TERM\necho '{\"event\":\"ready\"}' >&2\nexec sleep 600\n",
	}
	i := 0
	for p, text := range scripts {
		i++
		*p = filepath.Join(dir, fmt.Sprintf("fake-%d.sh", i))
		if err := os.WriteFile(*p, []byte(text), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}

// start starts an egress with opts, the real binary and minimalConfig
// unless opts says otherwise, and closes it when the test ends.
func start(t testing.TB, opts Options) *Egress {
	t.Helper()
	if opts.Binary == "" {
		opts.Binary = egressBin
	}
	if opts.Config == nil {
		opts.Config = func(string) ([]byte, error) { return []byte(minimalConfig), nil }
	}
	e, err := Start(opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// waitReady waits for e's readiness, at most 15 s.
func waitReady(t testing.TB, e *Egress) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := e.WaitReady(ctx); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
}

// getHealthz asks the egress's /healthz on socket, as an orchestrator
// would, independently of the launcher's own check.
func getHealthz(t testing.TB, socket string) (int, string) {
	t.Helper()
	conn, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		t.Fatalf("healthz: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte("GET /healthz HTTP/1.1\r\nHost: egress\r\n\r\n")); err != nil {
		t.Fatalf("healthz: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("healthz: %v", err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	return resp.StatusCode, strings.TrimSpace(body.String())
}

// processGone reports whether no process has pid (it exited and was
// reaped).
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscall.Signal(0)) != nil
}

// event is one parsed log line of the launcher.
type event map[string]any

// logRecorder records the launcher's log lines as events.
type logRecorder struct {
	mu      sync.Mutex
	events  []event
	changed chan struct{} // receives a token after each new event
}

func newLogRecorder() *logRecorder {
	return &logRecorder{changed: make(chan struct{}, 1)}
}

// logger returns a debug-level logger writing to r.
func (r *logRecorder) logger() zerolog.Logger {
	return zerolog.New(r)
}

// Write implements io.Writer for one zerolog line.
func (r *logRecorder) Write(p []byte) (int, error) {
	var ev event
	if err := json.Unmarshal(p, &ev); err != nil {
		return 0, err
	}
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// named returns the events named name so far.
func (r *logRecorder) named(name string) []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []event
	for _, ev := range r.events {
		if ev[fieldEvent] == name {
			out = append(out, ev)
		}
	}
	return out
}

// waitFor waits, at most 15 s, until n events named name were logged,
// and returns them.
func (r *logRecorder) waitFor(t testing.TB, name string, n int) []event {
	t.Helper()
	deadline := time.NewTimer(15 * time.Second)
	defer deadline.Stop()
	for {
		if evs := r.named(name); len(evs) >= n {
			return evs
		}
		select {
		case <-r.changed:
		case <-deadline.C:
			t.Fatalf("waited 15 s for %d %s events; have %d", n, name, len(r.named(name)))
		}
	}
}

// lineWriter records what is written to it, one Write per line.
type lineWriter struct {
	mu      sync.Mutex
	writes  []string
	changed chan struct{} // closed and replaced at each Write
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	if w.changed != nil {
		close(w.changed)
	}
	w.changed = make(chan struct{})
	w.mu.Unlock()
	return len(p), nil
}

// waitFor waits, at most 15 s, until a write contains every one of parts,
// and returns the writes so far.
func (w *lineWriter) waitFor(t *testing.T, parts ...string) []string {
	t.Helper()
	deadline := time.NewTimer(15 * time.Second)
	defer deadline.Stop()
	for {
		w.mu.Lock()
		writes := append([]string(nil), w.writes...)
		if w.changed == nil {
			w.changed = make(chan struct{})
		}
		changed := w.changed
		w.mu.Unlock()
		for _, wr := range writes {
			found := true
			for _, p := range parts {
				found = found && strings.Contains(wr, p)
			}
			if found {
				return writes
			}
		}
		select {
		case <-changed:
		case <-deadline.C:
			return writes
		}
	}
}

func (w *lineWriter) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.writes...)
}

// orphanEnv, set to the egress's path, makes the test binary play a
// rypsok that starts an egress and exits without closing it.
const orphanEnv = "LAUNCHER_TEST_ORPHAN"

// orphan starts an egress, waits for its readiness, prints its pid and
// directory, and returns without Close: the process then exits.
func orphan(bin string) int {
	e, err := Start(Options{Binary: bin, Config: func(string) ([]byte, error) { return []byte(minimalConfig), nil }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := e.WaitReady(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(e.currentPID(), filepath.Dir(e.Socket()))
	return 0
}
