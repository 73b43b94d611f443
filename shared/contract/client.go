package contract

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// ErrEgressUnreachable is wrapped when the egress socket cannot be reached.
var ErrEgressUnreachable = errors.New("contract: egress unreachable")

// readBufSize is the size of the reader of an egress answer: bodies come in
// large chunks, read in few calls.
const readBufSize = 64 << 10

// readers are the answers' readers, reused across requests.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBufSize) }}

// Client is an http.RoundTripper that sends every request to rypsok-egress
// over its Unix socket in absolute form ("GET https://host/path"), one
// connection per request. It is how the front reaches the network:
// net/http's own proxy support would tunnel https with CONNECT, which the
// egress refuses because it must see the request it judges.
//
// The request's context bounds the whole exchange, body included; set the
// contract headers with Request.Apply.
type Client struct {
	// Socket is the path of the egress's Unix socket.
	Socket string
}

var _ http.RoundTripper = (*Client)(nil)

// RoundTrip implements http.RoundTripper.
func (c *Client) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || !req.URL.IsAbs() || req.URL.Host == "" {
		closeBody(req)
		return nil, errors.New("contract: request URL must be absolute")
	}
	ctx := req.Context()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.Socket)
	if err != nil {
		closeBody(req)
		return nil, fmt.Errorf("%w: %w", ErrEgressUnreachable, err)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	fail := func(err error) (*http.Response, error) {
		stop()
		conn.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("contract: %w", context.Cause(ctx))
		}
		return nil, fmt.Errorf("contract: %w", err)
	}
	out := req.Clone(ctx)
	out.Close = true
	bw := bufio.NewWriter(conn)
	if err := out.WriteProxy(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		readers.Put(br)
		return fail(err)
	}
	resp.Body = &connBody{ReadCloser: resp.Body, conn: conn, br: br, stop: stop, ctx: ctx}
	return resp, nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// connBody closes the connection with the body, and turns a read that
// failed because the context ended into the context's error.
type connBody struct {
	io.ReadCloser
	conn net.Conn
	br   *bufio.Reader
	stop func() bool
	ctx  context.Context
	once sync.Once
}

func (b *connBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.ctx.Err() != nil {
		err = context.Cause(b.ctx)
	}
	return n, err
}

func (b *connBody) Close() error {
	b.once.Do(func() {
		b.stop()
		b.ReadCloser.Close()
		b.conn.Close()
		b.br.Reset(nil)
		readers.Put(b.br)
	})
	return nil
}
