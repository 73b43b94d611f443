package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/policy"
)

// hostile pages (REQ-TEST-004/006): every one ends within the call's
// deadline with exactly one answer, of the right kind and reason, and
// without holding more memory than its limits allow.

// dripping writes one byte every interval until the client leaves.
func dripping(interval time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				if _, err := w.Write([]byte("<")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}
}

// endless writes a body that never ends until the client leaves.
func endless(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	chunk := []byte(strings.Repeat("<p>more and more text</p>", 4096))
	for {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// gzipBomb is 64 MiB of zeros compressed to a few kilobytes.
func gzipBomb() []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 64 {
		z.Write(zeros)
	}
	z.Close()
	return b.Bytes()
}

// resetMidBody sends headers and part of the body, then resets the
// connection.
func resetMidBody(w http.ResponseWriter, r *http.Request) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<html><body><p>the start")
	buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0) // RST, not FIN
	}
	conn.Close()
}

// hugeHeaders answers with a megabyte of header lines.
func hugeHeaders(w http.ResponseWriter, r *http.Request) {
	for i := range 1024 {
		w.Header().Add("X-Filler", strings.Repeat("h", 1000)+string(rune('a'+i%26)))
	}
	w.Header().Set("Content-Type", "text/html")
	w.Write([]byte("<p>hello</p>"))
}

// notTLS is a listener that accepts and answers a TLS handshake with
// garbage.
func notTLS(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("this is not a TLS server\r\n"))
			c.Close()
		}
	}()
	return ln.Addr().String()
}

func TestHostilePages(t *testing.T) {
	s := newSite(t)
	bomb := gzipBomb()
	s.mux.HandleFunc("/robots.txt", http.NotFound)
	s.mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	s.mux.HandleFunc("/drip", dripping(time.Second))
	s.mux.HandleFunc("/endless", endless)
	s.mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	})
	s.mux.HandleFunc("/garbage", serve("text/html", "\x00\x01\x02\xff\xfe"+strings.Repeat("\x00\x9f\x92", 1000)))
	s.mux.HandleFunc("/json-as-html", serve("text/html", `{"not":"html","at":[1,2,3]}`))
	s.mux.HandleFunc("/429", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	})
	s.mux.HandleFunc("/503", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	s.mux.HandleFunc("/reset", resetMidBody)
	s.mux.HandleFunc("/headers", hugeHeaders)
	s.mux.HandleFunc("/wrong-charset", serve("text/html; charset=utf-8", "<html><body><article><p>Caf\xe9 cr\xe8me, "+strings.Repeat("a long enough paragraph of text. ", 20)+"</p></article></body></html>"))
	s.mux.HandleFunc("/no-charset", serve("text/html", "<html><body><article><p>Caf\xe9 cr\xe8me, "+strings.Repeat("a long enough paragraph of text. ", 20)+"</p></article></body></html>"))
	s.mux.HandleFunc("/challenge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte("<html><body><h1>Checking your browser</h1><p>Please enable JavaScript and cookies.</p></body></html>"))
	})
	tlsAddr := notTLS(t)
	p := setup(t, []*site{s}, func(o *Options) {
		o.callDeadline = 2 * time.Second
		o.responseDeadline = 1500 * time.Millisecond
		rules, err := policy.ParseRules([]string{s.hostPort(), tlsAddr})
		if err != nil {
			t.Fatal(err)
		}
		o.Config.Egress.Allow = rules
	})
	for _, tc := range []struct {
		name, url string
		kind      response.ErrorKind // "" for ok
		reason    response.Reason
		status    int
		check     func(*testing.T, response.Fetch)
	}{
		{"a page that never answers", s.url("/hang"), response.KindUnavailable, response.ReasonDeadline, 0, nil},
		{"a page dripping a byte a second", s.url("/drip"), response.KindUnavailable, response.ReasonDeadline, 0, nil},
		{"an endless body", s.url("/endless"), response.KindTooLarge, "", 0, nil},
		{"a gzip bomb", s.url("/bomb"), response.KindTooLarge, "", 0, nil},
		// Bytes that are no UTF-8 and name no charset are windows-1252, as
		// a browser reads them; the control characters are removed.
		{"binary garbage as HTML", s.url("/garbage"), "", "", 0, func(t *testing.T, f response.Fetch) {
			if strings.ContainsRune(f.Content, 0) {
				t.Error("a NUL reached the content")
			}
		}},
		{"JSON served as HTML", s.url("/json-as-html"), "", "", 0, nil},
		{"429 with Retry-After", s.url("/429"), response.KindUnavailable, response.ReasonHTTPStatus, 429, nil},
		{"503", s.url("/503"), response.KindUnavailable, response.ReasonHTTPStatus, 503, nil},
		{"a connection reset mid-body", s.url("/reset"), response.KindUnavailable, response.ReasonNetwork, 0, nil},
		// robots.txt is asked first; one that could not be fetched at all
		// answers as the page would: unavailable, network.
		{"a failing TLS handshake", "https://" + tlsAddr + "/", response.KindUnavailable, response.ReasonNetwork, 0, nil},
		{"a megabyte of headers", s.url("/headers"), response.KindUnavailable, response.ReasonNetwork, 0, nil},
		{"a wrong charset", s.url("/wrong-charset"), "", "", 0, func(t *testing.T, f response.Fetch) {
			if !strings.Contains(f.Content, "Caf\ufffd") {
				t.Errorf("content %.80q: the invalid bytes should be replaced", f.Content)
			}
		}},
		{"no charset", s.url("/no-charset"), "", "", 0, func(t *testing.T, f response.Fetch) {
			if !strings.Contains(f.Content, "Café crème") {
				t.Errorf("content %.80q, want windows-1252", f.Content)
			}
		}},
		{"an anti-bot challenge", s.url("/challenge"), response.KindUnavailable, response.ReasonHTTPStatus, 403, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			out, e := p.Fetch(context.Background(), Request{URL: tc.url, MaxChars: 3000})
			took := time.Since(start)
			if took > 5*time.Second { // the 2 s deadline, with a generous margin for a loaded machine
				t.Errorf("took %v, past the call's deadline", took)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
				t.Errorf("allocated %d MiB", grew>>20)
			}
			if tc.kind == "" {
				if e != nil {
					t.Fatalf("got %s %s, want ok", e.Body.Kind, e.Body.Detail.Reason)
				}
				if out.Outcome != response.OutcomeOK {
					t.Errorf("outcome %q", out.Outcome)
				}
				if tc.check != nil {
					tc.check(t, out)
				}
				return
			}
			if e == nil {
				t.Fatalf("got ok %.100q, want %s %s", out.Content, tc.kind, tc.reason)
			}
			if e.Body.Kind != tc.kind || e.Body.Detail.Reason != tc.reason {
				t.Fatalf("got %s %s, want %s %s", e.Body.Kind, e.Body.Detail.Reason, tc.kind, tc.reason)
			}
			if tc.status != 0 && e.Body.Detail.Status != tc.status {
				t.Errorf("status %v, want %d", e.Body.Detail.Status, tc.status)
			}
			if tc.status == 429 && (e.Body.Detail.RetryAfterMs == nil || *e.Body.Detail.RetryAfterMs != 30_000) {
				t.Errorf("retry_after_ms %v, want 30000", e.Body.Detail.RetryAfterMs)
			}
		})
	}
}

// TestAFailingTLSHandshake: with robots.txt off (so that the page itself
// is asked), a server that answers the handshake with garbage is
// unavailable, network.
func TestAFailingTLSHandshake(t *testing.T) {
	addr := notTLS(t)
	p := setup(t, nil, func(o *Options) {
		o.Config.Fetch.RobotsTxt = false
		rules, err := policy.ParseRules([]string{addr})
		if err != nil {
			t.Fatal(err)
		}
		o.Config.Egress.Allow = rules
	})
	start := time.Now()
	mustFail(t, p, Request{URL: "https://" + addr + "/", MaxChars: 3000}, response.KindUnavailable, response.ReasonNetwork)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
}
