package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/egress/dnstest"
	"github.com/rypsok/rypsok/shared/contract"
)

func runMain(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommandLine(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good.toml")
	os.WriteFile(good, []byte("config_version = 1\n[policy]\nallow_http = true\n"), 0o600)
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("config_version = 2\n[policy]\nallow = [\"a..b\"]\nnope = 1\n"), 0o600)
	nodir := filepath.Join(t.TempDir(), "nodir.toml")
	os.WriteFile(nodir, []byte("config_version = 1\nlisten.socket = \"/nonexistent/run/egress.sock\"\n[dns]\nservers = [\"10.0.0.2\"]\n"), 0o600)
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderrHas  []string
		stdoutNone bool
	}{
		{"--version", []string{"--version"}, ExitOK, "rypsok-egress ", nil, false},
		{"an unknown flag", []string{"--frobnicate"}, ExitUsage, "", []string{"usage:"}, true},
		{"an extra argument", []string{"serve", "now"}, ExitUsage, "", []string{"unexpected argument"}, true},
		{"an unknown command", []string{"frob"}, ExitUsage, "", []string{"unknown command"}, true},
		{"--help", []string{"--help"}, ExitOK, "usage:\n  rypsok-egress [serve]", nil, false},
		{"serve --help", []string{"serve", "--help"}, ExitOK, "usage:\n  rypsok-egress [serve]", nil, false},
		{"--help after a flag", []string{"--socket", "/tmp/x.sock", "-h"}, ExitOK, "usage:\n  rypsok-egress [serve]", nil, false},
		{"check --help", []string{"check", "--help"}, ExitOK, "usage:\n  rypsok-egress check", nil, false},
		{"healthcheck --help", []string{"healthcheck", "-help"}, ExitOK, "usage:\n  rypsok-egress healthcheck", nil, false},
		{"serving without a socket", []string{}, ExitUsage, "", []string{"no socket"}, true},
		{"check without --config", []string{"check"}, ExitUsage, "", []string{"check needs --config"}, true},
		{"check of a valid file", []string{"check", "--config", good}, ExitOK, good + ": valid", nil, false},
		{"check of an invalid file", []string{"check", "--config", bad}, ExitInvalid, "", []string{bad + ":1: config_version: must be 1, got 2\n" + bad + `:3: policy.allow[0]: rule "a..b": not a host name or an address` + "\n" + bad + ":4: policy.nope: unknown key\n"}, true},
		{"check of a file whose socket cannot be", []string{"check", "--config", nodir}, ExitInvalid, "", []string{nodir + ":2: listen.socket: the socket's directory /nonexistent/run does not exist and cannot be created"}, true},
		{"check of a missing file", []string{"check", "--config", "/nonexistent.toml"}, ExitInvalid, "", []string{"no such file"}, true},
		{"serving with an invalid file", []string{"--config", bad, "--socket", "/tmp/x.sock"}, ExitInvalid, "", []string{"unknown key"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runMain(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if !strings.HasPrefix(out, tc.stdout) || tc.stdoutNone && out != "" {
				t.Errorf("stdout %q, want it to start with %q", out, tc.stdout)
			}
			for _, s := range tc.stderrHas {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr %q lacks %q", errs, s)
				}
			}
		})
	}
}

// lineWatcher collects log lines and tells when one containing a word
// arrives.
type lineWatcher struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan string
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for _, line := range strings.Split(string(p), "\n") {
		if strings.Contains(line, `"event":"ready"`) {
			w.ready <- line
		}
	}
	return len(p), nil
}

func (w *lineWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestServeDrainsInFlightRequestsOnSIGTERM(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		fmt.Fprint(w, "late but whole")
	}))
	defer up.Close()
	dns := dnstest.Start(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "egress.sock")
	cfg := filepath.Join(dir, "egress.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`config_version = 1
[dns]
servers = [%q]
[policy]
allow_http = true
allow = [%q]
[telemetry]
metrics_listen = "127.0.0.1:0"
`, dns.Addr, strings.TrimPrefix(up.URL, "http://"))), 0o600)

	ctx, sigterm := context.WithCancel(context.Background())
	defer sigterm()
	logs := &lineWatcher{ready: make(chan string, 1)}
	exited := make(chan int, 1)
	go func() { exited <- Main(ctx, []string{"--config", cfg, "--socket", sock}, io.Discard, logs) }()
	var ready struct{ Metrics string }
	select {
	case line := <-logs.ready:
		json.Unmarshal([]byte(line), &ready)
	case code := <-exited:
		t.Fatalf("exited %d before ready: %s", code, logs)
	}

	client := &http.Client{Transport: &contract.Client{Socket: sock}}
	type answer struct {
		body string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := client.Get(up.URL + "/slow")
		if err != nil {
			done <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		done <- answer{string(b), err}
	}()
	<-started
	sigterm()
	select {
	case code := <-exited:
		t.Fatalf("exited %d with a request in flight", code)
	case <-time.After(100 * time.Millisecond): // a grace period to observe; not synchronization
	}
	if _, err := net.Dial("unix", sock); err == nil {
		t.Error("still accepting new connections while draining")
	}
	close(release)
	if a := <-done; a.err != nil || a.body != "late but whole" {
		t.Fatalf("in-flight request: got %q %v, want the whole body", a.body, a.err)
	}
	if code := <-exited; code != ExitOK {
		t.Fatalf("exit %d, want 0; logs:\n%s", code, logs)
	}
	if !strings.Contains(logs.String(), `"event":"stopped"`) {
		t.Errorf("no stopped line:\n%s", logs)
	}
	if ready.Metrics == "" {
		t.Error("ready line names no metrics listener")
	}
}

func TestMetricsAreServedWhenConfigured(t *testing.T) {
	dns := dnstest.Start(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "egress.sock")
	cfg := filepath.Join(dir, "egress.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("config_version = 1\n[dns]\nservers = [%q]\n[telemetry]\nmetrics_listen = \"127.0.0.1:0\"\n", dns.Addr)), 0o600)
	ctx, stop := context.WithCancel(context.Background())
	logs := &lineWatcher{ready: make(chan string, 1)}
	exited := make(chan int, 1)
	go func() { exited <- Main(ctx, []string{"--config", cfg, "--socket", sock}, io.Discard, logs) }()
	defer func() {
		stop()
		<-exited
	}()
	var ready struct{ Metrics string }
	json.Unmarshal([]byte(<-logs.ready), &ready)

	client := &http.Client{Transport: &contract.Client{Socket: sock}}
	resp, err := client.Get("https://127.0.0.1/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = http.Get("http://" + ready.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	want := `rypsok_egress_requests_total{decision="refuse",profile="agent",reason="address"} 1`
	if !strings.Contains(string(body), want) {
		t.Fatalf("metrics lack %q:\n%s", want, body)
	}
}
