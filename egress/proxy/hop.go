package proxy

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"strconv"
	"strings"
	"sync"

	"github.com/rypsok/rypsok/shared/contract"
)

// hopHeaders are removed from every forwarded response, with every
// contract header an upstream server may have sent to forge one.
var hopHeaders = []string{
	"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Connection",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Alt-Svc",
}

// sanitize removes from an upstream response's headers what must not
// reach the front. First every header the upstream's Connection headers
// name: they concern the upstream connection only, whatever the name
// (Cache-Control included), so a proxy drops them with Connection itself
// (RFC 9110 7.6.1). sent are the Connection values as the upstream sent
// them (see hopConn); h's own are read too. Then the standard hop-by-hop
// headers, and every contract header.
func sanitize(h http.Header, sent []string) {
	for _, v := range append(h.Values("Connection"), sent...) {
		for name := range strings.SplitSeq(v, ",") {
			if name = textproto.TrimString(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	for k := range h {
		if strings.HasPrefix(k, contract.HeaderPrefix) {
			delete(h, k)
		}
	}
}

// maxHeadBytes bounds the header block a hopConn keeps to read its
// Connection values: the transport's own bound (MaxResponseHeaderBytes),
// plus room for the status line.
const maxHeadBytes = 64<<10 + 4<<10

// hopConn is an upstream connection that notes the Connection header
// values of each response as the upstream sent them. http.Transport
// removes a Connection header that holds "close" while parsing, and with
// it the names listed beside close ("Connection: close, X-Secret-Hop"),
// which sanitize must still remove. hopConn only reads along: the bytes
// the transport reads are never changed.
//
// A response starts on a new connection, and again each time the
// transport hands the connection to a request (expect, from httptrace's
// GotConn, before the request is written); bytes read at any other time
// are not a response and are not kept. Its methods are safe for
// concurrent use: the transport reads in its own goroutine.
type hopConn struct {
	net.Conn

	mu      sync.Mutex
	reading bool     // a response's header block has not ended
	head    []byte   // that block, as far as read
	sent    []string // the Connection values of the last complete block
}

func newHopConn(c net.Conn) *hopConn { return &hopConn{Conn: c, reading: true} }

// hopDial wraps dial's connections in hopConns.
func hopDial(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return newHopConn(c), nil
	}
}

func (c *hopConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.note(p[:n])
	}
	return n, err
}

// expect starts a new response.
func (c *hopConn) expect() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reading, c.head, c.sent = true, c.head[:0], nil
}

// connection returns the Connection values of the response's header
// block; nil for a nil hopConn.
func (c *hopConn) connection() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent
}

// note keeps b while a header block is being read, and reads each block
// that ends. An interim (1xx) response's block is followed by another; a
// block over maxHeadBytes is given up, as the transport gives it up.
func (c *hopConn) note(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.reading && len(b) > 0 {
		start := max(len(c.head)-3, 0) // an end may straddle two reads
		c.head = append(c.head, b...)
		b = nil
		end := headEnd(c.head, start)
		switch {
		case end > maxHeadBytes || end < 0 && len(c.head) > maxHeadBytes:
			c.reading, c.head = false, nil
		case end >= 0:
			interim, sent := readHead(c.head[:end])
			b = c.head[end:]
			c.head = nil
			if !interim {
				c.reading, c.sent = false, sent
			}
		}
	}
}

// headEnd returns the length of the header block at the start of head
// (through the empty line that ends it, "\r\n" or "\n" line ends), or -1;
// the search starts at from.
func headEnd(head []byte, from int) int {
	for i := bytes.IndexByte(head[from:], '\n'); i >= 0; i = bytes.IndexByte(head[from:], '\n') {
		i += from
		rest := head[i+1:]
		switch {
		case len(rest) > 0 && rest[0] == '\n':
			return i + 2
		case len(rest) > 1 && rest[0] == '\r' && rest[1] == '\n':
			return i + 3
		}
		from = i + 1
	}
	return -1
}

// readHead reads a header block as the transport reads it (net/textproto):
// whether it is an interim 1xx response other than 101, and its
// Connection values. A block the transport could not read either yields
// none.
func readHead(block []byte) (interim bool, sent []string) {
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(block)))
	status, err := r.ReadLine()
	if err != nil {
		return false, nil
	}
	_, rest, _ := strings.Cut(status, " ")
	code, _, _ := strings.Cut(rest, " ")
	if n, err := strconv.Atoi(code); err == nil && n >= 100 && n < 200 && n != http.StatusSwitchingProtocols {
		return true, nil
	}
	h, err := r.ReadMIMEHeader()
	if err != nil {
		return false, nil
	}
	return false, h.Values("Connection")
}

// gotConn records the connection a request was given, and starts its
// response there; an httptrace.ClientTrace's GotConn.
func (x *exchange) gotConn(info httptrace.GotConnInfo) {
	if hc, ok := info.Conn.(*hopConn); ok {
		hc.expect()
		x.upstream = hc
	}
}
