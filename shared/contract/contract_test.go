package contract

import (
	"bufio"
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

func TestRequestRoundTripsThroughHeaders(t *testing.T) {
	for _, r := range []Request{
		{Profile: ProfileAgent},
		{Profile: ProfileAgent, Deadline: 1500 * time.Millisecond, MaxBytes: 5 << 20},
		{Profile: ProfileEngine, Engine: "wikipedia", Deadline: 2 * time.Second, MaxBytes: 1 << 20},
		{Profile: ProfileEngine, Engine: "my_searx-2"},
	} {
		h := http.Header{}
		h.Set(HeaderRefusal, "forged") // Apply clears every contract header
		r.Apply(h)
		got, err := ParseRequest(h)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if got != r {
			t.Errorf("got %+v, want %+v", got, r)
		}
	}
}

func TestParseRequestDefaultsToTheAgentProfile(t *testing.T) {
	got, err := ParseRequest(http.Header{})
	if err != nil || got != (Request{Profile: ProfileAgent}) {
		t.Fatalf("got %+v %v, want the agent profile", got, err)
	}
}

func TestParseRequestRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    http.Header
	}{
		{"another version", http.Header{HeaderVersion: {"2"}}},
		{"an unknown profile", http.Header{HeaderProfile: {"root"}}},
		{"an engine profile without engine", http.Header{HeaderProfile: {"engine"}}},
		{"an engine with the agent profile", http.Header{HeaderEngine: {"wikipedia"}}},
		{"an upper-case engine id", http.Header{HeaderProfile: {"engine"}, HeaderEngine: {"Wiki"}}},
		{"an engine id too long", http.Header{HeaderProfile: {"engine"}, HeaderEngine: {strings.Repeat("a", 65)}}},
		{"a profile given twice", http.Header{HeaderProfile: {"agent", "engine"}}},
		{"a zero deadline", http.Header{HeaderDeadline: {"0"}}},
		{"a negative deadline", http.Header{HeaderDeadline: {"-5"}}},
		{"a deadline with a sign", http.Header{HeaderDeadline: {"+5"}}},
		{"a deadline in seconds", http.Header{HeaderDeadline: {"1.5"}}},
		{"a byte limit too large to parse", http.Header{HeaderMaxBytes: {"99999999999999999999"}}},
		{"an unknown contract header", http.Header{"Rypsok-Widen-Policy": {"1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseRequest(tc.h); !errors.Is(err, ErrContract) {
				t.Errorf("got %v, want ErrContract", err)
			}
		})
	}
}

func TestVocabulariesAreClosedAndConsistent(t *testing.T) {
	seen := map[Reason]bool{}
	for _, r := range Reasons() {
		if seen[r] || !r.Valid() {
			t.Errorf("reason %q repeated or invalid", r)
		}
		seen[r] = true
		if s := Status(r); s < 400 || s > 599 {
			t.Errorf("status of %q is %d", r, s)
		}
	}
	for _, e := range Ends() {
		if !e.Valid() {
			t.Errorf("end %q invalid", e)
		}
		if e != EndComplete && !Reason(e).Valid() {
			t.Errorf("end %q is not a reason", e)
		}
	}
	for _, p := range Profiles() {
		if !p.Valid() {
			t.Errorf("profile %q invalid", p)
		}
	}
	if Reason("admin").Valid() || End("partial").Valid() || Profile("root").Valid() {
		t.Error("an unknown word is valid")
	}
}

// TestVocabulariesAreTheCallersCopies checks that a caller changing the
// list it was given changes nothing of the contract.
func TestVocabulariesAreTheCallersCopies(t *testing.T) {
	rs, es, ps := Reasons(), Ends(), Profiles()
	rs[0], es[0], ps[0] = "admin", "partial", "root"
	if Reasons()[0] != ReasonAddress || Ends()[0] != EndComplete || Profiles()[0] != ProfileAgent {
		t.Error("a caller's change reached the vocabulary")
	}
	if Reason("admin").Valid() || End("partial").Valid() {
		t.Error("a caller's change made a word valid")
	}
}

func TestRefusalOfAndEndOf(t *testing.T) {
	resp := &http.Response{StatusCode: 403, Header: http.Header{HeaderRefusal: {"address"}}}
	if r, ok := RefusalOf(resp); !ok || r != ReasonAddress {
		t.Errorf("got %q %v", r, ok)
	}
	resp.Header.Set(HeaderRefusal, "made-up")
	if r, ok := RefusalOf(resp); !ok || r != ReasonContract {
		t.Errorf("an unknown reason: got %q %v, want contract", r, ok)
	}
	if _, ok := RefusalOf(&http.Response{Header: http.Header{}}); ok {
		t.Error("a forwarded answer read as a refusal")
	}
	for _, tc := range []struct {
		status  int
		trailer string
		want    End
	}{
		{200, "complete", EndComplete},
		{200, "too_large", EndTooLarge},
		{200, "", EndNetwork},
		{200, "whatever", EndNetwork},
		{204, "", EndComplete},
		{304, "", EndComplete},
	} {
		resp := &http.Response{StatusCode: tc.status, Trailer: http.Header{}}
		if tc.trailer != "" {
			resp.Trailer.Set(TrailerEnd, tc.trailer)
		}
		if got := EndOf(resp); got != tc.want {
			t.Errorf("status %d trailer %q: got %q, want %q", tc.status, tc.trailer, got, tc.want)
		}
	}
}

// fakeEgress accepts one connection, hands the request it read to the
// test, and answers with what the test sends back.
func fakeEgress(t *testing.T, answer func(req *http.Request, conn net.Conn)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "e.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		req, err := http.ReadRequest(bufio.NewReader(conn))
		if err != nil {
			return
		}
		answer(req, conn)
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return path
}

func TestClientSendsAbsoluteFormAndReadsTheTrailer(t *testing.T) {
	var line, engine string
	path := fakeEgress(t, func(req *http.Request, conn net.Conn) {
		line = req.Method + " " + req.RequestURI
		engine = req.Header.Get(HeaderEngine)
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nTrailer: Rypsok-End\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nRypsok-End: too_large\r\n\r\n")
	})
	req, _ := http.NewRequest("GET", "https://example.com/a?b=c", nil)
	Request{Profile: ProfileEngine, Engine: "wikipedia"}.Apply(req.Header)
	resp, err := (&Client{Socket: path}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if line != "GET https://example.com/a?b=c" || engine != "wikipedia" {
		t.Errorf("egress saw %q engine %q", line, engine)
	}
	if string(body) != "hello" || EndOf(resp) != EndTooLarge {
		t.Errorf("got %q end %q", body, EndOf(resp))
	}
}

func TestClientGivesUpWhenTheContextEnds(t *testing.T) {
	path := fakeEgress(t, func(req *http.Request, conn net.Conn) {
		io.Copy(io.Discard, conn) // never answers; returns when the client closes
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://example.com/", nil)
	start := time.Now()
	_, err := (&Client{Socket: path}).RoundTrip(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want DeadlineExceeded", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("did not give up promptly")
	}
}

func TestClientReportsAnUnreachableEgress(t *testing.T) {
	req, _ := http.NewRequest("GET", "https://example.com/", nil)
	_, err := (&Client{Socket: filepath.Join(t.TempDir(), "none.sock")}).RoundTrip(req)
	if !errors.Is(err, ErrEgressUnreachable) {
		t.Fatalf("got %v, want ErrEgressUnreachable", err)
	}
}
