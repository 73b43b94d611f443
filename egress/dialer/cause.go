package dialer

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/rypsok/rypsok/egress/resolver"
)

// Cause says why an admitted request failed on its way upstream, for the
// operator's decision log (the cause of a fail line). It never reaches
// the front, whose vocabulary is the contract's reasons (network,
// timeout): a cause is finer, and can help only the operator.
type Cause string

// The causes. Connecting (DNS, then TCP, then TLS) sets the first ones;
// CauseOf reads the others from a failed exchange.
const (
	// CauseNXDomain: the name does not exist (NXDOMAIN), or has no
	// address record.
	CauseNXDomain Cause = "dns_nxdomain"
	// CauseDNSTimeout: no DNS server answered in time (LIM-E1 a query).
	CauseDNSTimeout Cause = "dns_timeout"
	// CauseDNS: DNS failed otherwise (SERVFAIL, REFUSED, a malformed
	// answer, a CNAME chain too long).
	CauseDNS Cause = "dns_error"
	// CauseDenyRule: a name of the CNAME chain matches a deny rule.
	CauseDenyRule Cause = "deny_rule"
	// CauseAddress: the address was refused as the socket connected (it
	// is not the one judged).
	CauseAddress Cause = "address"
	// CauseBusy: every upstream connection (LIM-E3) stayed in use.
	CauseBusy Cause = "busy"
	// CauseRefused: the host refused the connection (nothing listens on
	// the port).
	CauseRefused Cause = "refused"
	// CauseUnreachable: no route to the host or its network.
	CauseUnreachable Cause = "unreachable"
	// CauseConnectTimeout: no connection, TCP and TLS, within LIM-F6.
	CauseConnectTimeout Cause = "connect_timeout"
	// CauseTLS: the TLS handshake failed (a certificate not trusted or not
	// for the host, no protocol in common).
	CauseTLS Cause = "tls"
	// CauseConnect: the connection failed otherwise.
	CauseConnect Cause = "connect"
	// CauseResponseTimeout: the request's deadline passed before the
	// answer's head.
	CauseResponseTimeout Cause = "response_timeout"
	// CauseReset: the host reset the connection.
	CauseReset Cause = "reset"
	// CauseClosed: the host closed the connection without answering.
	CauseClosed Cause = "closed"
	// CauseOther: anything else (an answer that is not HTTP/1.1, an
	// upstream proxy's failure).
	CauseOther Cause = "other"
)

// Causes returns every Cause.
func Causes() []Cause {
	return []Cause{
		CauseNXDomain, CauseDNSTimeout, CauseDNS, CauseDenyRule, CauseAddress, CauseBusy,
		CauseRefused, CauseUnreachable, CauseConnectTimeout, CauseTLS, CauseConnect,
		CauseResponseTimeout, CauseReset, CauseClosed, CauseOther,
	}
}

// CauseOf returns the cause of err, the error of a failed round trip:
// the Dialer's own when connecting failed, else what err says of the
// exchange.
func CauseOf(err error) Cause {
	var de *Error
	switch {
	case errors.As(err, &de) && de.Cause != "":
		return de.Cause
	case errors.Is(err, context.DeadlineExceeded):
		return CauseResponseTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return CauseReset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return CauseClosed
	}
	return CauseOther
}

// lookupCause is the cause of a failed lookup.
func lookupCause(ctx context.Context, err error) Cause {
	switch {
	case errors.Is(err, resolver.ErrNotFound):
		return CauseNXDomain
	case timedOut(ctx, err):
		return CauseDNSTimeout
	}
	return CauseDNS
}

// connectCause is the cause of a failed TCP connect.
func connectCause(ctx context.Context, err error) Cause {
	switch {
	case errors.Is(err, errRefused):
		return CauseAddress
	case errors.Is(err, syscall.ECONNREFUSED):
		return CauseRefused
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return CauseUnreachable
	case timedOut(ctx, err):
		return CauseConnectTimeout
	}
	return CauseConnect
}

// timedOut reports whether err, or ctx, says the time ran out.
func timedOut(ctx context.Context, err error) bool {
	var ne net.Error
	return errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
