// Package dialer opens rypsok-egress's upstream connections: it resolves a
// name with the egress's own resolver, judges every address with the
// policy, connects to the addresses it admitted (judging the address again
// as the socket connects to it, so the address judged is the address
// dialled), and originates TLS. It bounds connect time (LIM-F6) and the
// number of open upstream connections (LIM-E3).
package dialer

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// Resolver looks up a name's addresses; *resolver.Resolver is one.
type Resolver interface {
	Lookup(ctx context.Context, name string) (resolver.Answer, error)
}

// Error is a connection failure or refusal with the contract reason the
// egress answers with. Range names the address range of the last refused
// address, and Cause why a connection failed ("" for a refusal), for the
// operator's log; they never reach the front.
type Error struct {
	Reason contract.Reason
	Range  policy.Range
	Cause  Cause
	Err    error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return "dialer: " + string(e.Reason)
	}
	return fmt.Sprintf("dialer: %s: %v", e.Reason, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// errRefused is the error of a connection the socket-level check refused.
var errRefused = errors.New("address refused at connect")

// Dialer connects to upstream hosts for one profile (and engine).
type Dialer struct {
	// Resolver resolves names; required.
	Resolver Resolver
	// Policy judges names and addresses; required.
	Policy *policy.Policy
	// Profile and Engine say which profile's rules apply.
	Profile contract.Profile
	Engine  string
	// RootCAs verifies servers; nil means the system roots.
	RootCAs *x509.CertPool
	// ConnectTimeout bounds TCP connect plus TLS handshake; zero means
	// limits.F6ConnectTimeout.
	ConnectTimeout time.Duration
	// Slots bounds open upstream connections, shared by every Dialer of a
	// process; nil means no bound.
	Slots *Slots
	// NoPolicy, if true, connects to any address (the operator's upstream
	// proxy, which the operator named explicitly).
	NoPolicy bool
	// Dial, if non-nil, opens the TCP connection to an address the policy
	// admitted ("ip:port"); tests use it to reach loopback fakes in place
	// of public addresses. Nil means a net.Dialer whose Control judges the
	// socket's address once more as it connects.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// DialContext connects to addr ("host:port") without TLS; it has the
// signature of http.Transport.DialContext.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, d.connectTimeout())
	defer cancel()
	conn, _, err := d.connect(ctx, addr)
	return conn, err
}

// DialTLSContext connects to addr and completes a TLS handshake for its
// host, both within the connect timeout; it has the signature of
// http.Transport.DialTLSContext.
func (d *Dialer) DialTLSContext(ctx context.Context, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, d.connectTimeout())
	defer cancel()
	conn, host, err := d.connect(ctx, addr)
	if err != nil {
		return nil, err
	}
	tc := tls.Client(conn, &tls.Config{
		ServerName: host.String(),
		RootCAs:    d.RootCAs,
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"http/1.1"},
	})
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		cause := CauseTLS
		if timedOut(ctx, err) {
			cause = CauseConnectTimeout
		}
		return nil, d.failure(ctx, cause, fmt.Errorf("tls: %w", err))
	}
	return tc, nil
}

func (d *Dialer) connectTimeout() time.Duration {
	if d.ConnectTimeout > 0 {
		return d.ConnectTimeout
	}
	return limits.F6ConnectTimeout
}

// connect resolves and judges addr's host, then connects to the first
// admitted address that answers.
func (d *Dialer) connect(ctx context.Context, addr string) (net.Conn, hostname.Host, error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, hostname.Host{}, &Error{Reason: contract.ReasonHost, Err: err}
	}
	host, err := hostname.Parse(h)
	if err != nil {
		return nil, host, &Error{Reason: contract.ReasonHost, Err: err}
	}
	port, err := strconv.ParseUint(p, 10, 16)
	if err != nil || port == 0 {
		return nil, host, &Error{Reason: contract.ReasonPort}
	}
	t := policy.Target{Profile: d.Profile, Engine: d.Engine, Host: host, Port: uint16(port)}
	addrs, err := d.admitted(ctx, t)
	if err != nil {
		return nil, host, err
	}
	release, err := d.Slots.acquire(ctx)
	if err != nil {
		return nil, host, d.failure(ctx, CauseBusy, err)
	}
	conn, err := d.connectAny(ctx, t, addrs)
	if err != nil {
		release()
		return nil, host, err
	}
	return &slotConn{Conn: conn, release: release}, host, nil
}

// admitted returns the addresses of t's host that the policy admits.
// When there is none, a name answers exactly as a name that does not
// resolve (ReasonNetwork); a literal answers ReasonAddress.
func (d *Dialer) admitted(ctx context.Context, t policy.Target) ([]netip.Addr, error) {
	if t.Host.IsAddr() {
		if dec := d.check(t, t.Host.Addr); !dec.Allow {
			return nil, &Error{Reason: dec.Reason, Range: dec.Range}
		}
		return []netip.Addr{t.Host.Addr}, nil
	}
	ans, err := d.Resolver.Lookup(ctx, t.Host.Name)
	if err != nil {
		return nil, d.failure(ctx, lookupCause(ctx, err), err)
	}
	for _, name := range ans.Names {
		if dec := d.Policy.CheckName(t, name); !d.NoPolicy && !dec.Allow {
			return nil, &Error{Reason: contract.ReasonNetwork, Cause: CauseDenyRule, Err: errors.New("a name of the chain is denied")}
		}
	}
	var ok []netip.Addr
	last := &Error{Reason: contract.ReasonNetwork, Cause: CauseNXDomain, Err: resolver.ErrNotFound}
	for _, a := range ans.Addrs {
		dec := d.check(t, a)
		if dec.Allow {
			ok = append(ok, a)
			continue
		}
		last = &Error{Reason: contract.ReasonNetwork, Range: dec.Range, Err: errRefused}
	}
	if len(ok) == 0 {
		return nil, last
	}
	return ok, nil
}

func (d *Dialer) check(t policy.Target, a netip.Addr) policy.Decision {
	if d.NoPolicy {
		return policy.Decision{Allow: true}
	}
	return d.Policy.CheckAddr(t, a)
}

// connectAny tries addrs in order, giving each attempt an equal share of
// the time left, as net.Dialer does for a name's addresses.
func (d *Dialer) connectAny(ctx context.Context, t policy.Target, addrs []netip.Addr) (net.Conn, error) {
	dial := d.Dial
	if dial == nil {
		nd := net.Dialer{Control: d.socketCheck(t)}
		dial = nd.DialContext
	}
	var err error
	for i, a := range addrs {
		actx := ctx
		if dl, ok := ctx.Deadline(); ok {
			share := time.Until(dl) / time.Duration(len(addrs)-i)
			var cancel context.CancelFunc
			actx, cancel = context.WithTimeout(ctx, share)
			defer cancel()
		}
		var conn net.Conn
		conn, err = dial(actx, "tcp", netip.AddrPortFrom(a, t.Port).String())
		if err == nil {
			return conn, nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, d.failure(ctx, connectCause(ctx, err), err)
}

// socketCheck returns the net.Dialer Control that judges t's address once
// more as the socket connects to it, after DNS and the policy's first
// judgement: the address judged there is the one the kernel is given, so
// no change between the check and the connect (a second DNS answer, an
// address rewritten on the way) can reach a refused address. An address
// that does not parse is refused.
func (d *Dialer) socketCheck(t policy.Target) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return errRefused
		}
		if dec := d.check(t, ap.Addr().Unmap()); !dec.Allow {
			return errRefused
		}
		return nil
	}
}

// failure classifies err, which cause explains: the connect context's
// deadline is a timeout, anything else a network failure.
func (d *Dialer) failure(ctx context.Context, cause Cause, err error) error {
	var de *Error
	if errors.As(err, &de) {
		return err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Reason: contract.ReasonTimeout, Cause: cause, Err: err}
	}
	return &Error{Reason: contract.ReasonNetwork, Cause: cause, Err: err}
}

// Slots bounds the number of open upstream connections (LIM-E3). A
// connection holds its slot until closed; a dial waits for a free slot
// until its context ends.
type Slots struct {
	ch chan struct{}
	// OnFull, if non-nil, is called (without blocking) when a dial finds
	// every slot taken, so idle pooled connections can be closed.
	OnFull func()
}

// NewSlots returns a bound of n open connections.
func NewSlots(n int) *Slots { return &Slots{ch: make(chan struct{}, n)} }

// InUse reports the number of slots held.
func (s *Slots) InUse() int {
	if s == nil {
		return 0
	}
	return len(s.ch)
}

func (s *Slots) acquire(ctx context.Context) (func(), error) {
	if s == nil {
		return func() {}, nil
	}
	select {
	case s.ch <- struct{}{}:
	default:
		if s.OnFull != nil {
			s.OnFull()
		}
		select {
		case s.ch <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var once sync.Once
	return func() { once.Do(func() { <-s.ch }) }, nil
}

// slotConn releases its slot when closed.
type slotConn struct {
	net.Conn
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
