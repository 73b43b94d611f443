// Package outbound is the front's only way out: http.Clients whose
// transport is rypsok-egress, each bound to one egress profile (and
// engine). A request carries the contract headers (profile, engine, its
// context's deadline, a byte limit) and waits, within its context, for an
// egress that is still starting. The front opens no other connection.
package outbound

import (
	"context"
	"net/http"
	"time"

	"github.com/rypsok/rypsok/shared/contract"
)

// Egress is where the egress listens and how to wait for it.
type Egress struct {
	// Socket is the Unix socket of an egress started separately.
	Socket string
	// Ready, if non-nil, blocks until the egress rypsok started answers,
	// or ctx ends, and returns its socket; it replaces Socket.
	Ready func(ctx context.Context) (string, error)
}

// Client returns a client for one profile (engine empty for the agent
// profile). Each request's body is limited to maxBytes by the egress
// (zero: the egress's own limit). The client follows no redirect.
func (e Egress) Client(profile contract.Profile, engine string, maxBytes int64) *http.Client {
	return &http.Client{
		Transport: &transport{egress: e, req: contract.Request{Profile: profile, Engine: engine, MaxBytes: maxBytes}},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

type transport struct {
	egress Egress
	req    contract.Request
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	socket := t.egress.Socket
	if t.egress.Ready != nil {
		var err error
		if socket, err = t.egress.Ready(ctx); err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
	}
	cr := t.req
	if dl, ok := ctx.Deadline(); ok {
		cr.Deadline = max(time.Until(dl), time.Millisecond)
	}
	out := req.Clone(ctx)
	cr.Apply(out.Header)
	return (&contract.Client{Socket: socket}).RoundTrip(out)
}
