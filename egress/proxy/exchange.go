package proxy

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/elazarl/goproxy"

	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/policy"
)

// exchange is one request's state, from arrival to the decision line.
type exchange struct {
	start   time.Time
	profile contract.Profile
	engine  string
	host    string // set once the policy admitted the request
	refused bool
	reason  contract.Reason
	rng     policy.Range
	cause   dialer.Cause // why an admitted request failed upstream
	status  int
	bytes   int64
	end     contract.End
	limit   int64 // body limit, after decompression
	cancel  context.CancelFunc
	// upstream is the connection the request was sent on, when it is
	// one whose response headers the egress reads as sent (see hopConn).
	upstream *hopConn
}

func (p *Proxy) begin(r *http.Request) *exchange {
	return &exchange{start: time.Now(), profile: contract.ProfileAgent, cancel: func() {}}
}

func (x *exchange) refuse(r contract.Reason) {
	x.refused, x.reason = true, r
}

// onRequest judges the request by its profile and, when admitted, sends
// it on with the profile's transport under the request's deadline.
func (p *Proxy) onRequest(r *http.Request, pctx *goproxy.ProxyCtx) (*http.Request, *http.Response) {
	x := p.begin(r)
	pctx.UserData = x
	req, err := contract.ParseRequest(r.Header)
	if err != nil {
		return r, p.refusal(r, x, contract.ReasonContract)
	}
	x.profile, x.engine = req.Profile, req.Engine
	t, reason := target(r, req)
	if reason != "" {
		return r, p.refusal(r, x, reason)
	}
	if dec := p.opts.Policy.CheckRequest(t); !dec.Allow {
		x.rng = dec.Range
		return r, p.refusal(r, x, dec.Reason)
	}
	out, reason := p.outgoing(r, t)
	if reason != "" {
		return r, p.refusal(r, x, reason)
	}
	tr := p.agent
	if t.Profile == contract.ProfileEngine {
		tr = p.engines[t.Engine]
	}
	pctx.RoundTripper = goproxy.RoundTripperFunc(func(req *http.Request, _ *goproxy.ProxyCtx) (*http.Response, error) {
		return tr.RoundTrip(req)
	})
	deadline := p.opts.ResponseTime
	if req.Deadline > 0 && req.Deadline < deadline {
		deadline = req.Deadline
	}
	x.limit = p.opts.MaxBody
	if req.MaxBytes > 0 && req.MaxBytes < x.limit {
		x.limit = req.MaxBytes
	}
	ctx, cancel := context.WithTimeout(r.Context(), deadline)
	x.cancel = cancel
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: x.gotConn})
	x.host = t.Host.String()
	return out.WithContext(ctx), nil
}

// target reads the request's destination as the policy sees it.
func target(r *http.Request, req contract.Request) (policy.Target, contract.Reason) {
	t := policy.Target{
		Profile:  req.Profile,
		Engine:   req.Engine,
		Method:   r.Method,
		Scheme:   strings.ToLower(r.URL.Scheme),
		Path:     r.URL.EscapedPath(),
		Userinfo: r.URL.User != nil,
		Body:     r.ContentLength != 0 || len(r.TransferEncoding) > 0,
	}
	if r.URL.Host == "" || r.URL.Opaque != "" {
		return t, contract.ReasonContract
	}
	host, err := hostname.Parse(r.URL.Hostname())
	if err != nil {
		return t, contract.ReasonHost
	}
	t.Host = host
	port, ok := urlPort(r.URL.Port(), t.Scheme)
	if !ok {
		return t, contract.ReasonPort
	}
	t.Port = port
	return t, ""
}

func urlPort(p, scheme string) (uint16, bool) {
	if p == "" {
		switch scheme {
		case "https":
			return 443, true
		case "http":
			return 80, true
		}
		return 0, true // the policy refuses the scheme
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, false
	}
	return uint16(n), true
}

// outgoing rewrites r's headers to those the profile keeps, or names the
// reason a header is refused.
func (p *Proxy) outgoing(r *http.Request, t policy.Target) (*http.Request, contract.Reason) {
	h := http.Header{}
	for k, vs := range r.Header {
		switch p.opts.Policy.CheckHeader(t.Profile, k) {
		case policy.HeaderRefuse:
			return nil, contract.ReasonHeader
		case policy.HeaderKeep:
			h[k] = vs
		}
	}
	r.Header = h
	r.Host = "" // the URL's host is the one judged and the one sent
	r.Close = false
	if t.Body {
		r.Body = http.MaxBytesReader(nil, r.Body, maxRequestBody)
	} else {
		r.Body = http.NoBody
		r.ContentLength = 0
	}
	return r, ""
}

// onResponse turns a failed round trip into the egress's refusal, and
// wraps a forwarded body with its limits and its end trailer.
func (p *Proxy) onResponse(resp *http.Response, pctx *goproxy.ProxyCtx) *http.Response {
	x, _ := pctx.UserData.(*exchange)
	if x == nil {
		x = p.begin(pctx.Req)
	}
	if resp == nil {
		reason := contract.ReasonNetwork
		var de *dialer.Error
		switch {
		case errors.As(pctx.Error, &de):
			reason, x.rng = de.Reason, de.Range
		case errors.Is(pctx.Error, context.DeadlineExceeded):
			reason = contract.ReasonTimeout
		}
		if x.rng != "" {
			// Every address was refused: a refusal, whose line does not
			// name the host.
			x.host = ""
		} else {
			x.cause = dialer.CauseOf(pctx.Error)
		}
		return p.refusal(pctx.Req, x, reason)
	}
	if x.refused {
		return resp // the egress's own refusal, made in onRequest
	}
	x.status = resp.StatusCode
	sanitize(resp.Header, x.upstream.connection())
	resp.Header.Set(contract.HeaderVersion, versionString)
	resp.Trailer = http.Header{contract.TrailerEnd: nil}
	resp.Body = p.meter(resp, x)
	return resp
}

// refusal builds the egress's own answer for reason and records it.
func (p *Proxy) refusal(r *http.Request, x *exchange, reason contract.Reason) *http.Response {
	x.refuse(reason)
	x.cancel()
	status, h, body := contract.Refusal(reason)
	resp := &http.Response{
		StatusCode:    status,
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		ContentLength: int64(len(body)),
		Body:          &finishBody{Reader: strings.NewReader(body), done: func() { p.finish(x) }},
	}
	resp.Status = strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
	return resp
}

// finishBody calls done once, when closed.
type finishBody struct {
	io.Reader
	once sync.Once
	done func()
}

func (b *finishBody) Close() error {
	b.once.Do(b.done)
	return nil
}
