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

// copyBufSize is the size of the buffers WriteTo fills before each write:
// big writes, fewer chunks and fewer system calls on the socket to the
// front. A TLS upstream returns at most one 16 KiB record per read, so
// WriteTo fills a buffer across reads.
const copyBufSize = 128 << 10

var copyBufs = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

// WriteTo streams the body to w in writes of up to copyBufSize bytes. The
// front reads whole bodies, so holding up to one buffer delays nothing it
// uses; the deadline still ends the stream, with what was read delivered.
func (b *meteredBody) WriteTo(w io.Writer) (int64, error) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	buf := *bp
	var total int64
	for {
		n, rerr := b.fill(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if rerr == io.EOF {
			return total, nil
		}
	}
}

// fill reads into buf until it is full or the body ends.
func (b *meteredBody) fill(buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := b.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
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
	case b.ctx.Err() != nil && errors.Is(context.Cause(b.ctx), context.DeadlineExceeded):
		// Checked before io.EOF: once the deadline has passed, an end of
		// body cannot be told from the cancellation cutting the stream
		// short, so it is reported as the deadline, never as complete.
		b.stop(contract.EndTimeout)
	case err == io.EOF:
		b.stop(contract.EndComplete)
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
