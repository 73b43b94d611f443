package search

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

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/egresstest"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// hostile engines (REQ-TEST-004/006): each search ends within its
// deadline with one answer: the engine noticed unavailable with the right
// error class, the call unavailable (the only engine failed), and no
// more memory held than the engine's body limit allows.

func engineDrip(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

func engineEndless(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"query":{"search":[`))
	item := []byte(strings.Repeat(`{"title":"x","snippet":"y","pageid":1},`, 1000))
	for {
		if _, err := w.Write(item); err != nil {
			return
		}
	}
}

func engineBomb() http.HandlerFunc {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	z.Write([]byte(`{"query":{"search":[{"title":"`))
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for range 64 {
		z.Write(spaces)
	}
	z.Close()
	body := b.Bytes()
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(body)
	}
}

func engineReset(w http.ResponseWriter, r *http.Request) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"query\":{\"search\":[")
	buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

func engineHugeHeaders(w http.ResponseWriter, r *http.Request) {
	for i := range 1024 {
		w.Header().Add("X-Filler", strings.Repeat("h", 1000)+string(rune('a'+i%26)))
	}
	wikipedia(wikiHit{"A", "a"})(w, r)
}

func respond(status int, ct, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

func TestHostileEngines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		h      http.HandlerFunc
		class  response.EngineClass
		reason response.Reason // of the call's unavailable
	}{
		{"an engine that never answers", hang(nil), response.ClassTimeout, response.ReasonDeadline},
		{"an engine dripping a byte a second", engineDrip, response.ClassTimeout, response.ReasonDeadline},
		{"an endless body", engineEndless, response.ClassTooLarge, response.ReasonAllFailed},
		{"a gzip bomb", engineBomb(), response.ClassTooLarge, response.ReasonAllFailed},
		{"garbage JSON", respond(200, "application/json", `{"query":{"search":[{"title":`), response.ClassBadResponse, response.ReasonAllFailed},
		{"HTML where JSON belongs", respond(200, "text/html", "<html><body>Welcome!</body></html>"), response.ClassBadResponse, response.ReasonAllFailed},
		{"429 with Retry-After", respond(429, "text/html", "slow down", "Retry-After", "30"), response.ClassRateLimited, response.ReasonAllFailed},
		{"500", respond(500, "text/html", "oops"), response.ClassServerError, response.ReasonAllFailed},
		{"503", respond(503, "text/html", "down"), response.ClassServerError, response.ReasonAllFailed},
		{"a connection reset mid-body", engineReset, response.ClassNetwork, response.ReasonAllFailed},
		{"a megabyte of headers", engineHugeHeaders, response.ClassNetwork, response.ReasonAllFailed},
		{"an anti-bot page", respond(403, "text/html", "<html><body>Please set a user-agent and respect our robot policy https://w.wiki/4wJS.</body></html>"), response.ClassBlocked, response.ReasonAllFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.h)
			p := pipeline(t, Options{Deadline: 1500 * time.Millisecond}, engineSpec{"wikipedia", "wikipedia", general, f})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			got, err := p.Search(context.Background(), req("tides"))
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if took > 5*time.Second { // the 1.5 s deadline, with a margin for a loaded machine
				t.Errorf("took %v", took)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 128<<20 {
				t.Errorf("allocated %d MiB", grew>>20)
			}
			if err == nil {
				t.Fatalf("got %s, want unavailable", marshal(t, got))
			}
			if err.Body.Kind != response.KindUnavailable || err.Body.Detail.Reason != tc.reason {
				t.Errorf("got %s %s, want unavailable %s", err.Body.Kind, err.Body.Detail.Reason, tc.reason)
			}
			p.Wait()
			if n := f.requests.Load(); n != 1 {
				t.Errorf("the engine was asked %d times, want once (nothing is retried)", n)
			}
		})
	}
}

// TestAHostileEngineBesideAGoodOne: the good engine's answer comes back
// partial, with the hostile one noticed by its class.
func TestAHostileEngineBesideAGoodOne(t *testing.T) {
	good := newFake(t, wikipedia(wikiHit{"Tide", "The tide"}))
	bad := newFake(t, engineEndless)
	p := pipeline(t, Options{Deadline: 1500 * time.Millisecond},
		engineSpec{"wikipedia", "wikipedia", general, good},
		engineSpec{"other", "wikipedia", general, bad})
	got, err := p.Search(context.Background(), req("tides"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != response.OutcomePartial || !strings.Contains(marshal(t, got.Notices), `{"code":"engine_unavailable","engine":"other","reason":"too_large"}`) || len(got.Results) != 1 {
		t.Errorf("got %s", marshal(t, got))
	}
}

// TestAnEngineFailingItsTLSHandshake: an engine at an https endpoint that
// answers the handshake with garbage is noticed as network.
func TestAnEngineFailingItsTLSHandshake(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
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
	endpoint := "https://" + ln.Addr().String() + "/fake"
	ep, err := policy.ParseEndpoint(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	out := outbound.Egress{Socket: egresstest.Start(t, policy.Config{Engines: map[string][]policy.Endpoint{"wikipedia": {ep}}})}
	d, err := drivers.New("wikipedia", engine.Config{ID: "wikipedia", Endpoint: endpoint, UserAgent: "rypsok/test", Languages: []string{"en"}})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	p := New(Options{
		Secrets: config.SecretRefuse,
		Engines: []*Engine{NewEngine("wikipedia", general, 1, d, out.Client(contract.ProfileEngine, "wikipedia", d.Properties().MaxBodyBytes))},
		Log:     zerolog.New(&logs),
	})
	_, e := p.Search(context.Background(), req("tides"))
	p.Wait()
	if e == nil || e.Body.Detail.Reason != response.ReasonAllFailed {
		t.Fatalf("got %v, want unavailable all_failed", e)
	}
	if !strings.Contains(logs.String(), `"class":"network"`) {
		t.Errorf("the engine's class: %s", logs.String())
	}
}

// TestInvisibleCharactersInResultURLsAreEncoded reproduces issue 15,
// point 4: an engine returns URLs holding a right-to-left override, tag
// characters, a zero-width space and U+0085; each comes back
// percent-encoded (the same resource, nothing hidden) and counted in
// characters_removed. A URL that encoding takes past LIM-F9 is dropped as
// url_too_long; a plain URL stays byte for byte.
func TestInvisibleCharactersInResultURLsAreEncoded(t *testing.T) {
	long := "https://evil.example/" + strings.Repeat("a", limits.F9URLChars-40) + strings.Repeat("\u200b", 10) // within LIM-F9, past it encoded
	brv := newFake(t, brave(
		braveHit{"Override", "https://evil.example/doc\u202efdp.exe", "a"},
		braveHit{"Tags", "https://evil.example/a\U000E0041\U000E0042b", "b"},
		braveHit{"Zero width", "https://evil.example/?q=x\u200by", "c"},
		braveHit{"Next line", "https://evil.example/n\u0085l", "d"},
		braveHit{"Plain", "https://example.org/a%2Fb?q=1&r=%7e", "e"},
		braveHit{"Long", long, "f"},
	))
	p := pipeline(t, Options{}, engineSpec{"brave", "brave", general, brv})
	r := req("files")
	r.MaxResults = 10
	got, err := p.Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Override":   "https://evil.example/doc%E2%80%AEfdp.exe",
		"Tags":       "https://evil.example/a%F3%A0%81%81%F3%A0%81%82b",
		"Zero width": "https://evil.example/?q=x%E2%80%8By",
		"Next line":  "https://evil.example/n%C2%85l",
		"Plain":      "https://example.org/a%2Fb?q=1&r=%7e",
	}
	if len(got.Results) != len(want) {
		t.Fatalf("got %s, want %d results", marshal(t, got), len(want))
	}
	for _, res := range got.Results {
		if res.URL != want[res.Title] {
			t.Errorf("%s: url %q, want %q", res.Title, res.URL, want[res.Title])
		}
	}
	counts := map[response.NoticeCode]int{}
	for _, n := range got.Notices {
		counts[n.Code] = n.Count
		if n.Code == response.NoticeResultsDropped && n.Reason != string(response.ReasonURLTooLong) {
			t.Errorf("dropped for %q, want url_too_long", n.Reason)
		}
	}
	if counts[response.NoticeCharactersRemoved] != 5 || counts[response.NoticeResultsDropped] != 1 {
		t.Errorf("notices %s, want characters_removed 5 and results_dropped 1", marshal(t, got.Notices))
	}
}
