package fuzz

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/egress/proxy"
	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/fetch"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// The web_fetch pipeline in front of a real egress (egress/proxy with its
// policy and dialer) in this process, over a Unix socket, with a fake
// network behind it: every name resolves to nameAddr, and a dial either
// fails (after being recorded) or reaches a site answering canned bytes.
// Nothing leaves the process.

// nameAddr is the public address every name resolves to.
var nameAddr = netip.MustParseAddr("93.184.216.34")

// site is what the fake site answers: a status, header lines and a body.
type site struct {
	status  int
	headers [][2]string
	body    []byte
}

// fakeNet is the network behind an egress. Its zero value fails every
// dial.
type fakeNet struct {
	mu       sync.Mutex
	requests []string // URLs the egress was asked for
	dials    []string // "ip:port" the egress dialled
	site     *site    // nil: every dial fails
}

func (n *fakeNet) reset(s *site) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.requests, n.dials, n.site = nil, nil, s
}

func (n *fakeNet) seen() (requests, dials []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.requests...), append([]string(nil), n.dials...)
}

// Lookup implements dialer.Resolver: every name is nameAddr.
func (n *fakeNet) Lookup(_ context.Context, name string) (resolver.Answer, error) {
	return resolver.Answer{Names: []string{name}, Addrs: []netip.Addr{nameAddr}}, nil
}

var errRefused = errors.New("fuzz: connection refused")

// dial records address and answers with the site, if any.
func (n *fakeNet) dial(_ context.Context, _, address string) (net.Conn, error) {
	n.mu.Lock()
	n.dials = append(n.dials, address)
	s := n.site
	n.mu.Unlock()
	if s == nil {
		return nil, errRefused
	}
	client, server := net.Pipe()
	go s.serve(server)
	return client, nil
}

// serve answers one request on c with s's bytes, then closes c.
func (s *site) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %03d Fuzz\r\n", s.status)
	for _, h := range s.headers {
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], h[1])
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\nConnection: close\r\n\r\n", len(s.body))
	c.Write([]byte(b.String()))
	c.Write(s.body)
}

// recorder wraps the egress's handler to record the URLs it is asked for.
func (n *fakeNet) recorder(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.mu.Lock()
		n.requests = append(n.requests, r.URL.String())
		n.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// front is a web_fetch pipeline, its egress and the network behind.
type front struct {
	cfg    config.Config
	policy policy.Config
	net    *fakeNet
	egress outbound.Egress
	fetch  *fetch.Pipeline
}

// newFront starts an egress judging by the policy of c and a pipeline of
// c in front of it, stopped when tb ends. robots.txt and the secret check
// are off: the policy is what is fuzzed.
func newFront(tb testing.TB, c config.Config) *front {
	tb.Helper()
	c.Fetch.RobotsTxt = false
	c.Privacy.SecretDetection = config.SecretOff
	pc := policy.Config{AllowHTTP: c.Egress.AllowHTTP, Allow: c.Egress.Allow, Deny: c.Egress.Deny}
	n := &fakeNet{}
	p := proxy.New(proxy.Options{
		Policy:   policy.New(pc),
		Resolver: n,
		Dialer:   dialer.Dialer{Dial: n.dial, ConnectTimeout: 5 * time.Second},
	})
	path := tb.TempDir() + "/e.sock"
	ln, err := net.Listen("unix", path)
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: n.recorder(p), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	eg := outbound.Egress{Socket: path}
	pl := fetch.New(fetch.Options{Config: c, Egress: eg, UserAgent: "rypsok/fuzz", Log: zerolog.Nop()})
	tb.Cleanup(func() {
		pl.Close()
		srv.Close()
		<-done
		p.CloseIdle()
	})
	return &front{cfg: c, policy: pc, net: n, egress: eg, fetch: pl}
}

// outcome is what one web_fetch call came to.
type outcome struct {
	kind     response.ErrorKind // "" when the call succeeded
	reason   response.Reason
	requests []string // URLs the egress was asked for
	dials    []string // addresses the egress dialled
	err      *response.Error
	out      response.Fetch
}

// key is what must be equal between two spellings of one destination.
func (o outcome) key() string {
	return fmt.Sprintf("%s/%s dials %q", o.kind, o.reason, o.dials)
}

// get runs one web_fetch call for raw, the site answering s (nil: the
// connection fails).
func (f *front) get(raw string, s *site) outcome {
	f.net.reset(s)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, e := f.fetch.Fetch(ctx, fetch.Request{URL: raw})
	o := outcome{err: e, out: out}
	if e != nil {
		o.kind, o.reason = e.Body.Kind, e.Body.Detail.Reason
	}
	o.requests, o.dials = f.net.seen()
	return o
}

// checkVocabulary fails t unless e's kind and reason are of the closed
// vocabularies of front/response, its message within LIM-I4.
func checkVocabulary(t *testing.T, what string, e *response.Error) {
	t.Helper()
	if e == nil {
		return
	}
	kindOK := false
	for _, k := range response.ErrorKinds() {
		kindOK = kindOK || k == e.Body.Kind
	}
	if !kindOK {
		t.Fatalf("%s: kind %q outside the vocabulary", what, e.Body.Kind)
	}
	if r := e.Body.Detail.Reason; r != "" {
		ok := false
		for _, v := range response.ReasonsOf(e.Body.Kind) {
			ok = ok || v == r
		}
		if !ok {
			t.Fatalf("%s: reason %q is not one of %s's", what, r, e.Body.Kind)
		}
	}
	if n := len([]rune(e.Body.Message)); n > limits.I4MessageChars {
		t.Fatalf("%s: message of %d characters", what, n)
	}
}

// hangLimit is how long one input may run before the watchdog calls it a
// hang: far beyond any budget, so that only a hang trips it, even under
// the race detector on a loaded machine.
const hangLimit = 60 * time.Second

// watchdog panics when the input under test runs longer than hangLimit,
// so that the fuzzer records a hang as a failing input instead of
// waiting on it forever. Call the returned function when the input is
// done.
func watchdog(t *testing.T, what string) (stop func()) {
	t.Helper()
	start := time.Now()
	timer := time.AfterFunc(hangLimit, func() {
		panic(fmt.Sprintf("%s: one input has run for %v", what, time.Since(start)))
	})
	return func() { timer.Stop() }
}
