package gate

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"

	"github.com/rypsok/rypsok/front/response"
)

// h2Preface is the first 24 bytes of every HTTP/2 connection.
const h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// listener bounds the open connections (LIM-H1 in all, a share of it per
// source address) and hands a connection to the HTTP server only once it
// has shown, within LIM-H3 of its accept, that it speaks HTTP/1 or
// HTTP/2. The bytes read to tell are handed back with the connection.
type listener struct {
	inner     net.Listener
	max       int
	perSource int
	probe     time.Duration // LIM-H3
	refuse    func(response.HTTPRefusal)

	ready  chan net.Conn
	done   chan struct{}
	closed sync.Once
	wg     sync.WaitGroup // the accept loop and the probes

	mu       sync.Mutex
	open     int
	bySource map[netip.Addr]int
	probing  map[net.Conn]bool // closed at Close, not waited out
}

func newListener(inner net.Listener, max, perSource int, probe time.Duration, refuse func(response.HTTPRefusal)) *listener {
	l := &listener{
		inner: inner, max: max, perSource: perSource, probe: probe, refuse: refuse,
		ready:    make(chan net.Conn),
		done:     make(chan struct{}),
		bySource: map[netip.Addr]int{},
		probing:  map[net.Conn]bool{},
	}
	l.wg.Add(1)
	go l.acceptLoop()
	return l
}

// Accept returns the next connection that has shown its protocol.
func (l *listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting; connections already handed out stay open. It
// waits for the accept loop and the probes to end.
func (l *listener) Close() error {
	var err error
	l.closed.Do(func() {
		close(l.done)
		err = l.inner.Close()
		l.mu.Lock()
		for c := range l.probing {
			c.Close()
		}
		l.mu.Unlock()
	})
	l.wg.Wait()
	return err
}

func (l *listener) Addr() net.Addr { return l.inner.Addr() }

func (l *listener) acceptLoop() {
	defer l.wg.Done()
	var delay time.Duration
	for {
		c, err := l.inner.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, errTooManyFiles) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				select {
				case <-time.After(delay):
				case <-l.done:
					return
				}
				continue
			}
			return
		}
		delay = 0
		src := sourceOf(c.RemoteAddr())
		if !l.admit(src) {
			l.refuse(response.HTTPTooManyConnections)
			c.Close()
			continue
		}
		l.mu.Lock()
		l.probing[c] = true
		l.mu.Unlock()
		l.wg.Add(1)
		go l.probeConn(c, src)
	}
}

// admit counts a new connection from src, or reports false when LIM-H1
// or src's share is reached.
func (l *listener) admit(src netip.Addr) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.max || l.bySource[src] >= l.perSource {
		return false
	}
	l.open++
	l.bySource[src]++
	return true
}

func (l *listener) release(src netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.bySource[src]--; l.bySource[src] <= 0 {
		delete(l.bySource, src)
	}
}

// probeConn reads until the connection shows HTTP/1 (any first byte that
// does not begin the HTTP/2 preface) or the whole HTTP/2 preface, under
// one deadline of LIM-H3; a connection that shows neither is closed and
// counted as idle_connection, without a log line of its own.
func (l *listener) probeConn(c net.Conn, src netip.Addr) {
	defer l.wg.Done()
	pc := &conn{Conn: c, release: func() { l.release(src) }, timeout: func() { l.refuse(response.HTTPRequestTimeout) }}
	defer func() {
		l.mu.Lock()
		delete(l.probing, c)
		l.mu.Unlock()
	}()
	c.SetReadDeadline(time.Now().Add(l.probe))
	var buf [len(h2Preface)]byte
	n := 0
	for {
		m, err := c.Read(buf[n:])
		n += m
		if n > 0 && !bytes.HasPrefix([]byte(h2Preface), buf[:n]) {
			pc.http1 = true
			break
		}
		if n == len(h2Preface) {
			break
		}
		if err != nil {
			l.refuse(response.HTTPIdleConnection)
			pc.Close()
			return
		}
	}
	c.SetReadDeadline(time.Time{})
	pc.prefix = append([]byte(nil), buf[:n]...)
	select {
	case l.ready <- pc:
	case <-l.done:
		pc.Close()
	}
}

// errTooManyFiles is the accept error of a process out of descriptors: it
// is waited out, as a timeout is.
var errTooManyFiles = syscall.EMFILE

// sourceOf is the address a connection comes from.
func sourceOf(a net.Addr) netip.Addr {
	if ta, ok := a.(*net.TCPAddr); ok {
		ip, _ := netip.AddrFromSlice(ta.IP)
		return ip.Unmap()
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// conn is an accepted connection: the probed bytes are read first, its
// close releases its place, and on HTTP/1 a request whose headers outlive
// their deadline is answered 408 before the connection closes.
type conn struct {
	net.Conn
	prefix  []byte
	http1   bool
	release func()
	timeout func() // counts a 408 written here
	once    sync.Once

	mu        sync.Mutex
	pending   bool // bytes of a request read and not yet answered
	inHandler bool // the gate's handler holds the current request
	answered  bool // a 408 was written
}

func (c *conn) Read(p []byte) (int, error) {
	if len(c.prefix) > 0 {
		n := copy(p, c.prefix)
		c.prefix = c.prefix[n:]
		c.mark(n)
		return n, nil
	}
	n, err := c.Conn.Read(p)
	c.mark(n)
	if err != nil && c.http1 {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			c.timedOut()
		}
	}
	return n, err
}

func (c *conn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.pending = false
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *conn) mark(n int) {
	if n > 0 {
		c.mu.Lock()
		c.pending = true
		c.mu.Unlock()
	}
}

// timedOut answers 408 when a request's headers were still arriving at
// the deadline (LIM-H5). The HTTP server closes such a connection without
// an answer; an idle keep-alive connection, or a request the handler is
// reading, is not answered here.
func (c *conn) timedOut() {
	c.mu.Lock()
	answer := c.pending && !c.inHandler && !c.answered
	c.answered = c.answered || answer
	c.mu.Unlock()
	if answer {
		c.timeout()
		c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
		c.Conn.Write([]byte("HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: 16\r\n\r\nrequest timeout\n"))
	}
}

// handling records whether the gate's handler holds the current request.
func (c *conn) handling(on bool) {
	c.mu.Lock()
	c.inHandler = on
	c.mu.Unlock()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
