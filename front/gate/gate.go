// Package gate is rypsok's Streamable HTTP listener (docs/design:
// transports and protocol; docs/design/decisions.md, the HTTP listener at
// the pinned SDK): the connection bounds (LIM-H1, a share of it per
// source, LIM-H3), then one handler in front of the MCP SDK's that
// answers what the SDK does not — 404 for another path, 403 for a Host
// or Origin not allowed, 401 without the bearer token, 406, 408 (LIM-H5),
// 413 (LIM-H2), 503 beyond LIM-H6 legacy sessions or a caller's share of
// them — names the caller, and
// routes a request by its protocol revision. Every refusal is counted by
// reason; those the status table marks as logged are logged
// (docs/operations.md, serving over HTTP).
package gate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/telemetry"
	"github.com/rypsok/rypsok/shared/limits"
)

// Path is the one path served.
const Path = "/mcp"

// CallerHeader carries the authenticated caller from the gate to the tool
// handlers. The gate removes any value a client sent and sets its own, so
// only the gate speaks through it.
const CallerHeader = "Rypsok-Caller"

// ModernRevision is the first protocol revision served without a handshake
// (2026-07-28): a request whose MCP-Protocol-Version is this or later goes
// to MCP.Modern, any other to MCP.Legacy.
const ModernRevision = "2026-07-28"

// MCP are the SDK's handlers (mcpserver.HTTPServer): one stateless for
// ModernRevision and later, one with sessions for the handshake-based
// revisions.
type MCP interface {
	Modern() http.Handler
	Legacy() http.Handler
	// LegacySessionIDs reports the IDs of the Legacy handler's open
	// sessions.
	LegacySessionIDs() map[string]bool
	// Close closes the Legacy handler's sessions.
	Close()
}

// RetryAfterSessions is the Retry-After of a 503 beyond LIM-H6 or a
// caller's share of it, seconds.
const RetryAfterSessions = "30"

// Options configure the gate.
type Options struct {
	// HTTP is the [service] configuration of the listener.
	HTTP config.HTTP
	// MCP are the SDK's handlers.
	MCP MCP
	// Log receives http_refused lines and the serving line.
	Log zerolog.Logger
	// Metrics counts refusals; nil counts nothing.
	Metrics *telemetry.Metrics
	// Limits; zero means the LIM-H value (tests shorten them).
	ProtocolWait, RequestTime, StreamLifetime time.Duration
	Connections, LegacySessions               int
}

// handler is the gate's http.Handler.
type handler struct {
	o       Options
	tokens  []config.Token
	log     zerolog.Logger
	connLog zerolog.Logger // sampled: a flood of connections writes few lines

	share   int // the legacy sessions one caller may hold; 0: no share of its own
	mu      sync.Mutex
	owners  map[string]string // legacy session ID → caller
	opening map[string]int    // legacy sessions admitted and not yet opened, by caller

	drain     context.Context // done at shutdown: ends standalone streams
	stopDrain context.CancelFunc

	callsMu  sync.Mutex
	calls    int           // POST requests in the handler
	callsEnd chan struct{} // closed and replaced whenever calls reaches 0
}

func (o *Options) defaults() {
	if o.ProtocolWait == 0 {
		o.ProtocolWait = limits.H3ProtocolWait
	}
	if o.RequestTime == 0 {
		o.RequestTime = limits.H5RequestTime
	}
	if o.StreamLifetime == 0 {
		o.StreamLifetime = limits.H4StreamLifetime
	}
	if o.Connections == 0 {
		o.Connections = limits.H1Connections
	}
	if o.LegacySessions == 0 {
		o.LegacySessions = limits.H6LegacySessions
	}
	if o.HTTP.ConnectionsPerSource == 0 {
		o.HTTP.ConnectionsPerSource = o.Connections
	}
}

func newHandler(o Options) *handler {
	drain, stop := context.WithCancel(context.Background())
	return &handler{
		o:         o,
		tokens:    o.HTTP.Tokens,
		log:       o.Log,
		connLog:   o.Log.Sample(&zerolog.BurstSampler{Burst: 5, Period: time.Second}),
		share:     o.HTTP.CallerShare(o.LegacySessions),
		owners:    map[string]string{},
		opening:   map[string]int{},
		drain:     drain,
		stopDrain: stop,
		callsEnd:  make(chan struct{}),
	}
}

// refuse counts a refusal and logs it when the status table says so
// (docs/operations.md, serving over HTTP).
func (h *handler) refuse(r response.HTTPRefusal, caller string) {
	h.o.Metrics.HTTPRefused(string(r))
	if !r.Logged() {
		return
	}
	log := h.log
	if r == response.HTTPTooManyConnections {
		log = h.connLog
	}
	e := log.Warn().Str("event", "http_refused").Str("reason", string(r))
	if caller != "" {
		e = e.Str("caller", caller)
	}
	e.Send()
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if c, ok := r.Context().Value(connKey{}).(*conn); ok {
		c.handling(true)
		defer c.handling(false)
	}
	if r.URL.Path != Path {
		h.refuse(response.HTTPNotFound, "")
		http.NotFound(w, r)
		return
	}
	if !h.hostAllowed(r.Host) || !h.originAllowed(r.Header.Get("Origin")) {
		h.refuse(response.HTTPForbidden, "")
		http.Error(w, "Forbidden: Host or Origin not allowed", http.StatusForbidden)
		return
	}
	caller, ok := h.caller(r)
	if !ok {
		h.refuse(response.HTTPUnauthorized, "")
		w.Header().Set("WWW-Authenticate", `Bearer realm="rypsok"`)
		http.Error(w, "Unauthorized: a bearer token is required", http.StatusUnauthorized)
		return
	}
	if !acceptable(r) {
		h.refuse(response.HTTPNotAcceptable, caller)
		http.Error(w, "Not Acceptable: Accept must list application/json and text/event-stream", http.StatusNotAcceptable)
		return
	}
	if r.ContentLength > limits.H2BodyBytes {
		h.refuse(response.HTTPBodyTooLarge, caller)
		http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
		return
	}
	rc := http.NewResponseController(w)
	body, status := h.readBody(r, rc)
	if status != 0 {
		reason := response.HTTPBadRequest
		switch status {
		case http.StatusRequestTimeout:
			reason = response.HTTPRequestTimeout
		case http.StatusRequestEntityTooLarge:
			reason = response.HTTPBodyTooLarge
		}
		h.refuse(reason, caller)
		w.Header().Set("Connection", "close")
		http.Error(w, http.StatusText(status), status)
		return
	}
	r.Header.Del(CallerHeader)
	r.Header.Set(CallerHeader, caller)
	ctx, cancel := context.WithTimeout(r.Context(), h.o.StreamLifetime) // LIM-H4
	defer cancel()
	if r.Method == http.MethodGet {
		stop := context.AfterFunc(h.drain, cancel) // shutdown ends standalone streams
		defer stop()
	} else {
		h.callStarted()
		defer h.callEnded()
	}
	rc.SetWriteDeadline(time.Now().Add(h.o.StreamLifetime + 5*time.Second))
	r = r.WithContext(ctx)
	sw := &statusWriter{ResponseWriter: w}
	if modern(r) {
		h.o.MCP.Modern().ServeHTTP(sw, r)
	} else {
		h.serveLegacy(w, sw, r, body, caller)
	}
	switch sw.status {
	case http.StatusBadRequest:
		h.refuse(response.HTTPBadRequest, caller)
	case http.StatusRequestEntityTooLarge:
		h.refuse(response.HTTPBodyTooLarge, caller)
	}
}

// hostAllowed reports whether the Host header names a loopback host or
// one of allowed_hosts.
func (h *handler) hostAllowed(host string) bool {
	host = strings.ToLower(host)
	name := host
	if n, _, err := net.SplitHostPort(host); err == nil {
		name = n
	}
	if isLoopbackName(strings.Trim(name, "[]")) {
		return true
	}
	for _, a := range h.o.HTTP.AllowedHosts {
		if a == "*" || a == host || a == name {
			return true
		}
	}
	return false
}

// originAllowed reports whether an Origin header is absent (not a
// browser), a loopback origin, or one of allowed_origins.
func (h *handler) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	origin = strings.ToLower(origin)
	for _, a := range h.o.HTTP.AllowedOrigins {
		if a == "*" || a == origin {
			return true
		}
	}
	scheme, rest, ok := strings.Cut(origin, "://")
	if !ok || (scheme != "http" && scheme != "https") {
		return false
	}
	name := rest
	if n, _, err := net.SplitHostPort(rest); err == nil {
		name = n
	}
	return isLoopbackName(strings.Trim(name, "[]"))
}

func isLoopbackName(name string) bool {
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// caller names the request's caller by its bearer token, comparing the
// token's digest with every configured one in constant time. Without
// configured tokens (a loopback listener) every request is CallerLocal's.
func (h *handler) caller(r *http.Request) (string, bool) {
	if len(h.tokens) == 0 {
		return config.CallerLocal, true
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	d := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	caller := ""
	for _, t := range h.tokens {
		if subtle.ConstantTimeCompare(d[:], t.Digest[:]) == 1 {
			caller = t.Caller
		}
	}
	return caller, caller != ""
}

// acceptable reports whether Accept lists what the method needs: both
// application/json and text/event-stream for a POST, text/event-stream
// for a GET. Other methods are the SDK's to answer.
func acceptable(r *http.Request) bool {
	var jsonOK, streamOK bool
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			switch mt {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	switch r.Method {
	case http.MethodPost:
		return jsonOK && streamOK
	case http.MethodGet:
		return streamOK
	}
	return true
}

// readBody reads the whole request body under LIM-H5 (counted from the
// request's arrival by the server's ReadTimeout) and LIM-H2, and puts it
// back for the SDK; status is 408 or 413 when it could not.
func (h *handler) readBody(r *http.Request, rc *http.ResponseController) (body []byte, status int) {
	if r.Body == nil || r.Body == http.NoBody {
		rc.SetReadDeadline(time.Time{})
		return nil, 0
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limits.H2BodyBytes+1))
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return nil, http.StatusRequestTimeout
	case err != nil:
		return nil, http.StatusBadRequest
	case len(body) > limits.H2BodyBytes:
		return nil, http.StatusRequestEntityTooLarge
	}
	rc.SetReadDeadline(time.Time{}) // the request has arrived: streams may outlive LIM-H5
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return body, 0
}

// modern reports whether r is of a revision served without a handshake.
func modern(r *http.Request) bool {
	v := r.Header.Get("Mcp-Protocol-Version")
	return v != "" && v >= ModernRevision
}

// serveLegacy hands a request of a handshake-based revision to the
// Legacy handler once admitLegacy admits it (w answers a refusal, sw
// records the SDK's status), and records who owns the session it opens.
func (h *handler) serveLegacy(w http.ResponseWriter, sw *statusWriter, r *http.Request, body []byte, caller string) {
	serve, opening := h.admitLegacy(w, r, body, caller)
	if !serve {
		return
	}
	if opening {
		defer func() { h.opened(caller, sw.Header().Get("Mcp-Session-Id")) }()
	}
	h.o.MCP.Legacy().ServeHTTP(sw, r)
}

// admitLegacy answers 404 to a request naming a session another caller
// opened, and 503 to a new legacy session beyond LIM-H6 or beyond its
// caller's share of it; it reports whether the request goes on to the
// SDK, and whether it opens a session (admitted and counted: opened must
// follow).
func (h *handler) admitLegacy(w http.ResponseWriter, r *http.Request, body []byte, caller string) (serve, opening bool) {
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		h.mu.Lock()
		owner, known := h.owners[id]
		h.mu.Unlock()
		if known && owner != caller {
			http.Error(w, "session not found", http.StatusNotFound)
			return false, false
		}
		return true, false
	}
	if r.Method != http.MethodPost {
		return true, false
	}
	if !isInitialize(body) {
		// The pinned SDK would open a session for it and answer 200 with a
		// JSON-RPC error; the listener's contract answers 400.
		h.refuse(response.HTTPBadRequest, caller)
		http.Error(w, "Bad Request: no Mcp-Session-Id; send initialize first", http.StatusBadRequest)
		return false, false
	}
	if !h.reserve(caller) {
		h.refuse(response.HTTPSessionLimit, caller)
		w.Header().Set("Retry-After", RetryAfterSessions)
		http.Error(w, "Service Unavailable: too many sessions", http.StatusServiceUnavailable)
		return false, false
	}
	return true, true
}

// reserve counts a session caller is about to open, or reports false when
// LIM-H6 sessions are open or being opened, or caller holds its share of
// them. Sessions being opened count, so that initialize requests sent at
// once cannot all pass before any of them has opened its session.
func (h *handler) reserve(caller string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	// Read under the lock: every owner recorded had its session open
	// before this snapshot, so an owned session missing from it has closed.
	live := h.o.MCP.LegacySessionIDs()
	mine, all := h.opening[caller], 0
	for _, n := range h.opening {
		all += n
	}
	for id, owner := range h.owners {
		switch {
		case !live[id]:
			delete(h.owners, id) // closed: its place is free
		case owner == caller:
			mine++
		}
	}
	// A session opened and not yet owned is both live and being opened.
	all = max(all+len(h.owners), len(live))
	if all >= h.o.LegacySessions || (h.share > 0 && mine >= h.share) {
		return false
	}
	h.opening[caller]++
	return true
}

// opened ends the opening that reserve counted: caller now owns the
// session id (none when the SDK opened none).
func (h *handler) opened(caller, id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.opening[caller]--; h.opening[caller] <= 0 {
		delete(h.opening, caller)
	}
	if id != "" {
		h.owners[id] = caller
	}
}

// isInitialize reports whether a JSON-RPC body (one message or a batch)
// holds an initialize request.
func isInitialize(body []byte) bool {
	var one struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(body, &one) == nil {
		return one.Method == "initialize"
	}
	var batch []struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(body, &batch) == nil {
		for _, m := range batch {
			if m.Method == "initialize" {
				return true
			}
		}
	}
	return false
}

// statusWriter records the status the SDK answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// connKey is the context key of the accepted *conn.
type connKey struct{}

func (h *handler) callStarted() {
	h.callsMu.Lock()
	h.calls++
	h.callsMu.Unlock()
}

func (h *handler) callEnded() {
	h.callsMu.Lock()
	defer h.callsMu.Unlock()
	if h.calls--; h.calls == 0 {
		close(h.callsEnd)
		h.callsEnd = make(chan struct{})
	}
}

// callsDone waits until no POST request is in the handler, or ctx ends.
func (h *handler) callsDone(ctx context.Context) {
	h.callsMu.Lock()
	n, end := h.calls, h.callsEnd
	h.callsMu.Unlock()
	if n == 0 {
		return
	}
	select {
	case <-end:
	case <-ctx.Done():
	}
}
