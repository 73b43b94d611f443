package proxy

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/rypsok/rypsok/shared/contract"
)

// meteredBody streams a forwarded body under its byte limit and the
// request's deadline. Every way the body can end (all of it, the limit,
// the deadline, a broken upstream) ends the stream cleanly for the front,
// with the way it ended in the trailer contract.TrailerEnd; the front
// tells a truncated body from a whole one by that trailer alone.
type meteredBody struct {
	body    io.ReadCloser
	ctx     context.Context
	trailer http.Header
	limit   int64
	x       *exchange
	done    func()
	once    sync.Once
	ended   bool
}

func (p *Proxy) meter(resp *http.Response, x *exchange) io.ReadCloser {
	b := &meteredBody{
		body:    resp.Body,
		ctx:     resp.Request.Context(),
		trailer: resp.Trailer,
		limit:   x.limit,
		x:       x,
		done:    func() { p.finish(x) },
	}
	if resp.ContentLength > x.limit {
		b.stop(contract.EndTooLarge) // declared too large: send no byte of it
	}
	return b
}

func (b *meteredBody) Read(p []byte) (int, error) {
	if b.ended {
		return 0, io.EOF
	}
	if room := b.limit + 1 - b.x.bytes; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.body.Read(p)
	if b.x.bytes+int64(n) > b.limit {
		n = int(b.limit - b.x.bytes)
		b.x.bytes = b.limit
		b.stop(contract.EndTooLarge)
		return n, io.EOF
	}
	b.x.bytes += int64(n)
	switch {
	case err == nil:
		return n, nil
	case err == io.EOF:
		b.stop(contract.EndComplete)
	case b.ctx.Err() != nil && errors.Is(context.Cause(b.ctx), context.DeadlineExceeded):
		b.stop(contract.EndTimeout)
	default:
		b.stop(contract.EndNetwork)
	}
	return n, io.EOF
}

// stop ends the stream with e.
func (b *meteredBody) stop(e contract.End) {
	b.ended = true
	b.x.end = e
	b.trailer.Set(contract.TrailerEnd, string(e))
}

func (b *meteredBody) Close() error {
	b.once.Do(func() {
		b.body.Close()
		b.done()
	})
	return nil
}
