package proxy

import (
	"bytes"
	"context"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/egress/dnstest"
	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/egress/socket"
	"github.com/rypsok/rypsok/egress/telemetry"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// env is one egress under test: a DNS fake, an upstream fake reached
// through a dial hook (so "public" addresses land on loopback), the egress
// on a Unix socket, and a contract client.
type env struct {
	t       testing.TB
	dns     *dnstest.Server
	proxy   *Proxy
	client  *http.Client
	logs    *syncBuffer
	metrics *telemetry.Metrics

	mu     sync.Mutex
	dialed []string // addresses the egress dialled, in order
}

type envOptions struct {
	policy policy.Config
	// routes maps an "ip:port" the egress dials to the loopback address
	// that really answers; a dial of an address not in routes fails as
	// an unreachable network would. nil means real dialling.
	routes         map[string]string
	roots          *x509.CertPool
	connectTimeout time.Duration
	responseTime   time.Duration
	maxBody        int64
	slots          int // upstream connections; zero means 8
	upstream       *url.URL
	upstreamAgent  bool
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	e := &env{t: t, dns: dnstest.Start(t), logs: &syncBuffer{}, metrics: telemetry.New()}
	res, err := resolver.New(resolver.Config{Servers: []string{e.dns.Addr}})
	if err != nil {
		t.Fatal(err)
	}
	if o.policy.Engines == nil {
		o.policy.Engines = map[string][]policy.Endpoint{}
	}
	if o.slots == 0 {
		o.slots = 8
	}
	d := dialer.Dialer{RootCAs: o.roots, ConnectTimeout: o.connectTimeout, Slots: dialer.NewSlots(o.slots)}
	var nd net.Dialer
	d.Dial = func(ctx context.Context, network, address string) (net.Conn, error) {
		e.mu.Lock()
		e.dialed = append(e.dialed, address)
		e.mu.Unlock()
		if o.routes == nil {
			return nd.DialContext(ctx, network, address)
		}
		to, ok := o.routes[address]
		if !ok {
			return nil, &net.OpError{Op: "dial", Net: network, Err: errNoRoute}
		}
		return nd.DialContext(ctx, network, to)
	}
	e.proxy = New(Options{
		Policy:        policy.New(o.policy),
		Resolver:      res,
		Log:           zerolog.New(e.logs),
		Metrics:       e.metrics,
		Dialer:        d,
		ResponseTime:  o.responseTime,
		MaxBody:       o.maxBody,
		Upstream:      o.upstream,
		UpstreamAgent: o.upstreamAgent,
	})
	path := t.TempDir() + "/egress.sock"
	ln, err := socket.Listen(path, -1)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e.proxy}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	t.Cleanup(func() {
		srv.Close()
		<-done
		e.proxy.CloseIdle()
	})
	e.client = &http.Client{
		Transport:     &contract.Client{Socket: path},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return e
}

var errNoRoute = &net.AddrError{Err: "no route to host (test)"}

// result is what the front learns from one exchange.
type result struct {
	status  int
	refusal contract.Reason // "" when the answer was forwarded
	body    []byte
	end     contract.End
	header  http.Header
	elapsed time.Duration
}

// do sends one request through the egress with contract request cr and
// extra headers (name, value pairs), and reads the whole answer.
func (e *env) do(method, url string, cr contract.Request, headers ...string) result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	cr.Apply(req.Header)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	start := time.Now()
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	r := result{status: resp.StatusCode, body: body, header: resp.Header, elapsed: time.Since(start)}
	if reason, ok := contract.RefusalOf(resp); ok {
		r.refusal = reason
	} else {
		r.end = contract.EndOf(resp)
	}
	return r
}

func (e *env) dials() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.dialed...)
}

// logLines returns the decision lines written so far.
func (e *env) logLines() []string {
	return strings.Split(strings.TrimSpace(e.logs.String()), "\n")
}

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
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

// tlsUpstream starts an https fake whose certificate is valid for
// example.com, 127.0.0.1 and ::1, and returns it with a pool trusting it.
func tlsUpstream(t *testing.T, h http.Handler) (*httptest.Server, *x509.CertPool) {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return srv, pool
}

func hostPort(srv *httptest.Server) string {
	return strings.TrimPrefix(strings.TrimPrefix(srv.URL, "https://"), "http://")
}
