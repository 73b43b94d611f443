package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/egress/dnstest"
	"github.com/rypsok/rypsok/shared/contract"
)

// serveEgress runs the egress of policy (TOML lines of [policy]) on a
// fresh socket until the test ends; it returns the socket, the
// configuration file and the egress's log.
func serveEgress(t *testing.T, policy string) (sock, cfg string, logs *lineWatcher) {
	t.Helper()
	dns := dnstest.Start(t)
	dir := t.TempDir()
	sock = filepath.Join(dir, "egress.sock")
	cfg = filepath.Join(dir, "egress.toml")
	toml := fmt.Sprintf("config_version = 1\n[listen]\nsocket = %q\n[dns]\nservers = [%q]\n[policy]\n%s\n", sock, dns.Addr, policy)
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	logs = &lineWatcher{ready: make(chan string, 1)}
	exited := make(chan int, 1)
	go func() { exited <- Main(ctx, []string{"--config", cfg}, io.Discard, logs) }()
	t.Cleanup(func() {
		stop()
		<-exited
	})
	select {
	case <-logs.ready:
	case code := <-exited:
		t.Fatalf("the egress exited %d before ready: %s", code, logs)
	}
	return sock, cfg, logs
}

func TestHealthcheckOfAServingEgress(t *testing.T) {
	sock, cfg, logs := serveEgress(t, "allow_http = true\nallow = [\"0.0.0.0/0\", \"127.0.0.0/8\"]")
	for _, args := range [][]string{
		{"healthcheck", "--socket", sock},
		{"healthcheck", "--config", cfg},
		{"healthcheck", "--config", cfg, "--timeout", "2s"},
	} {
		code, out, errs := runMain(args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d, want 0; stderr %q", args, code, errs)
		}
		if !strings.Contains(out, "healthy") || !strings.Contains(out, "address") {
			t.Errorf("%v: stdout %q", args, out)
		}
	}
	// The probe is refused by the policy, never resolved nor dialled, and
	// its decision line says so.
	if !strings.Contains(logs.String(), `"decision":"refuse","reason":"address","range":"unspecified"`) {
		t.Errorf("no refusal of the probe in the decision log:\n%s", logs)
	}
}

func TestHealthcheckAcceptsADenyRuleOnTheProbe(t *testing.T) {
	sock, _, _ := serveEgress(t, `deny = ["0.0.0.0/8"]`)
	code, out, errs := runMain("healthcheck", "--socket", sock)
	if code != ExitOK || !strings.Contains(out, "deny_rule") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want healthy by deny_rule", code, out, errs)
	}
}

// impostor serves the socket with answer for every request but /healthz,
// which it answers like the egress.
func impostor(t *testing.T, healthz, answer string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "impostor.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				req, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				if req.RequestURI == contract.HealthPath {
					io.WriteString(conn, healthz)
					return
				}
				io.WriteString(conn, answer)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return path
}

func TestHealthcheckFails(t *testing.T) {
	const okHealthz = "HTTP/1.1 200 OK\r\nRypsok-Egress-Version: 1\r\nContent-Length: 3\r\n\r\nok\n"
	for _, tc := range []struct {
		name            string
		healthz, answer string
		stderr          string
	}{
		{"an egress that forwards the probe", okHealthz,
			"HTTP/1.1 200 OK\r\nTrailer: Rypsok-End\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nRypsok-End: complete\r\n\r\n", "policy was not applied"},
		{"a refusal for another reason", okHealthz,
			"HTTP/1.1 400 Bad Request\r\nRypsok-Egress-Version: 1\r\nRypsok-Refusal: contract\r\nContent-Length: 0\r\n\r\n", "not by the address policy"},
		{"a refusal with the wrong status", okHealthz,
			"HTTP/1.1 502 Bad Gateway\r\nRypsok-Egress-Version: 1\r\nRypsok-Refusal: address\r\nContent-Length: 0\r\n\r\n", "status 502"},
		{"a healthz of another contract", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n", "", "contract version"},
		{"a failing healthz", "HTTP/1.1 503 Service Unavailable\r\nRypsok-Egress-Version: 1\r\nContent-Length: 0\r\n\r\n", "", "status 503"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runMain("healthcheck", "--socket", impostor(t, tc.healthz, tc.answer))
			if code != ExitInvalid || out != "" || !strings.Contains(errs, tc.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errs, tc.stderr)
			}
		})
	}
	t.Run("nothing at the socket", func(t *testing.T) {
		code, _, errs := runMain("healthcheck", "--socket", filepath.Join(t.TempDir(), "none.sock"))
		if code != ExitInvalid || !strings.Contains(errs, "unreachable") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
	})
	t.Run("an egress that never answers", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "silent.sock")
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		start := time.Now()
		code, _, errs := runMain("healthcheck", "--socket", path, "--timeout", "200ms")
		if code != ExitInvalid || !strings.Contains(errs, "deadline") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the check outlived its --timeout")
		}
	})
}

func TestHealthcheckUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("config_version = 1\nnope = 1\n"), 0o600)
	noSocket := filepath.Join(t.TempDir(), "nosocket.toml")
	os.WriteFile(noSocket, []byte("config_version = 1\n"), 0o600)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"healthcheck"}, ExitUsage, "healthcheck needs --socket"},
		{[]string{"healthcheck", "--config", noSocket}, ExitUsage, "healthcheck needs --socket"},
		{[]string{"healthcheck", "--socket", "/x.sock", "extra"}, ExitUsage, "unexpected argument"},
		{[]string{"healthcheck", "--socket", "/x.sock", "--timeout", "0s"}, ExitUsage, "positive --timeout"},
		{[]string{"healthcheck", "--config", bad}, ExitInvalid, "unknown key"},
	} {
		code, _, errs := runMain(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.stderr)
		}
	}
}
