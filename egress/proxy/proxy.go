// Package proxy is rypsok-egress's request path: a forward proxy built on
// github.com/elazarl/goproxy that takes absolute-form requests over the
// egress socket, judges each by its profile, forwards the ones it admits
// through a dialer that judges every address it connects to, and streams
// the answer back under the request's time and byte limits. It refuses
// CONNECT: the egress originates TLS itself so that it sees and enforces
// method, headers, status and body.
package proxy

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/elazarl/goproxy"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/egress/telemetry"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// maxRequestBody bounds the body of an engine request (a POST form).
const maxRequestBody = 64 << 10

// idleConnTimeout is how long a pooled upstream connection may idle.
const idleConnTimeout = 30 * time.Second

// Options configure a Proxy.
type Options struct {
	// Policy judges requests and addresses; required.
	Policy *policy.Policy
	// Resolver resolves names; required.
	Resolver dialer.Resolver
	// Log receives one decision line per request; the zero Logger discards.
	Log zerolog.Logger
	// Metrics counts decisions; nil counts nothing.
	Metrics *telemetry.Metrics
	// Upstream, if non-nil, is a proxy that engine traffic goes through;
	// UpstreamAgent lets agent-directed traffic use it too.
	Upstream      *url.URL
	UpstreamAgent bool
	// Dialer fields shared by every profile: RootCAs, ConnectTimeout,
	// Slots. Resolver, Policy, Profile and Engine are set per profile.
	Dialer dialer.Dialer
	// ResponseTime bounds one whole response; zero means
	// limits.F4ResponseTime. A request's own deadline may shorten it.
	ResponseTime time.Duration
	// MaxBody bounds a body after decompression; zero means
	// limits.F3BodyBytes. A request's own limit may lower it.
	MaxBody int64
}

// Proxy is the egress's http.Handler.
type Proxy struct {
	opts    Options
	gp      *goproxy.ProxyHttpServer
	agent   *http.Transport
	engines map[string]*http.Transport
	slots   *dialer.Slots
}

var _ http.Handler = (*Proxy)(nil)

// New builds the proxy: one transport (one connection pool) per profile
// and engine, so a connection admitted for one profile is never reused by
// another.
func New(opts Options) *Proxy {
	if opts.ResponseTime <= 0 {
		opts.ResponseTime = limits.F4ResponseTime
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = limits.F3BodyBytes
	}
	p := &Proxy{opts: opts, engines: map[string]*http.Transport{}, slots: opts.Dialer.Slots}
	p.agent = p.transport(contract.ProfileAgent, "", opts.UpstreamAgent)
	for _, id := range opts.Policy.EngineIDs() {
		p.engines[id] = p.transport(contract.ProfileEngine, id, true)
	}
	if p.slots != nil && p.slots.OnFull == nil {
		p.slots.OnFull = p.CloseIdle
	}
	gp := goproxy.NewProxyHttpServer()
	gp.Logger = debugLogger{opts.Log}
	gp.Tr = p.agent
	gp.ConnectDial = nil
	gp.NonproxyHandler = http.HandlerFunc(p.serveLocal)
	gp.OnRequest().DoFunc(p.onRequest)
	gp.OnResponse().DoFunc(p.onResponse)
	p.gp = gp
	return p
}

// transport returns the transport of one profile (and engine).
func (p *Proxy) transport(profile contract.Profile, engine string, upstreamOK bool) *http.Transport {
	d := p.opts.Dialer
	d.Resolver, d.Policy, d.Profile, d.Engine = p.opts.Resolver, p.opts.Policy, profile, engine
	tr := &http.Transport{
		Proxy:                  nil, // environment proxies are ignored
		DialContext:            hopDial(d.DialContext),
		DialTLSContext:         hopDial(d.DialTLSContext),
		TLSNextProto:           map[string]func(string, *tls.Conn) http.RoundTripper{}, // HTTP/1.1 only,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        idleConnTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		ReadBufferSize:         64 << 10,
		DisableCompression:     false, // gzip is asked for and decoded here, counted after decoding
	}
	if p.opts.Upstream != nil && upstreamOK {
		// Through the upstream proxy, the transport makes the TLS
		// connection itself, so no hopConn sees the response's header
		// block: sanitize reads the Connection values the transport
		// keeps.
		pd := d
		pd.NoPolicy = true
		tr.Proxy = http.ProxyURL(p.opts.Upstream)
		tr.DialContext = pd.DialContext
		tr.DialTLSContext = nil
		tr.TLSClientConfig = tlsClientConfig(d.RootCAs)
		tr.TLSHandshakeTimeout = d.ConnectTimeout
		if tr.TLSHandshakeTimeout == 0 {
			tr.TLSHandshakeTimeout = limits.F6ConnectTimeout
		}
	}
	return tr
}

// CloseIdle closes every idle pooled upstream connection.
func (p *Proxy) CloseIdle() {
	p.agent.CloseIdleConnections()
	for _, tr := range p.engines {
		tr.CloseIdleConnections()
	}
}

// ServeHTTP implements http.Handler.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		x := p.begin(r)
		x.refuse(contract.ReasonMethod)
		contract.WriteRefusal(w, contract.ReasonMethod)
		p.finish(x)
		return
	}
	p.gp.ServeHTTP(w, r)
}

// serveLocal answers requests in origin form: GET /healthz is the
// readiness check; anything else is not a proxy request.
func (p *Proxy) serveLocal(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		w.Header().Set(contract.HeaderVersion, versionString)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
		return
	}
	x := p.begin(r)
	x.refuse(contract.ReasonContract)
	contract.WriteRefusal(w, contract.ReasonContract)
	p.finish(x)
}

func tlsClientConfig(roots *x509.CertPool) *tls.Config {
	return &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
}

var versionString = strconv.Itoa(contract.Version)

// debugLogger sends goproxy's own messages to the debug level.
type debugLogger struct{ log zerolog.Logger }

func (l debugLogger) Printf(format string, v ...any) {
	l.log.Debug().Str("event", "goproxy").Msgf(format, v...)
}
