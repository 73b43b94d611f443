package contract

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHealthz(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want string // want "" = healthy
	}{
		{"healthy", "HTTP/1.1 200 OK\r\nRypsok-Egress-Version: 1\r\nContent-Length: 3\r\n\r\nok\n", ""},
		{"another contract version", "HTTP/1.1 200 OK\r\nRypsok-Egress-Version: 2\r\nContent-Length: 3\r\n\r\nok\n", "version"},
		{"no contract version: not an egress", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n", "version"},
		{"a refusal", "HTTP/1.1 400 Bad Request\r\nRypsok-Egress-Version: 1\r\nRypsok-Refusal: contract\r\nContent-Length: 0\r\n\r\n", "status 400"},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n", "malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var line string
			path := fakeEgress(t, func(req *http.Request, conn net.Conn) {
				line = req.Method + " " + req.RequestURI
				io.WriteString(conn, tc.answer)
			})
			err := Healthz(context.Background(), path)
			if line != "GET "+HealthPath {
				t.Errorf("egress saw %q", line)
			}
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("got %v, want healthy", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestHealthzGivesUp(t *testing.T) {
	if err := Healthz(context.Background(), filepath.Join(t.TempDir(), "none.sock")); !errors.Is(err, ErrEgressUnreachable) {
		t.Fatalf("no socket: got %v, want ErrEgressUnreachable", err)
	}
	path := fakeEgress(t, func(req *http.Request, conn net.Conn) {
		io.Copy(io.Discard, conn) // never answers
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := Healthz(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a silent egress: got %v, want DeadlineExceeded", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("did not give up promptly")
	}
}
