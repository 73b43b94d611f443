package dialer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"syscall"
	"testing"

	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/shared/contract"
)

// TestCauses: each failure, as the standard library wraps it, is given
// its cause.
func TestCauses(t *testing.T) {
	live := context.Background()
	ended, cancel := context.WithTimeout(live, 0)
	defer cancel()
	dial := func(errno error) error {
		return &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", errno)}
	}
	for _, tc := range []struct {
		name string
		got  Cause
		want Cause
	}{
		{"NXDOMAIN", lookupCause(live, fmt.Errorf("%w: x.test A (nxdomain)", resolver.ErrNotFound)), CauseNXDomain},
		{"a DNS server that does not answer", lookupCause(ended, errors.New("resolver: no answer")), CauseDNSTimeout},
		{"SERVFAIL", lookupCause(live, errors.New("resolver: rcode SERVFAIL")), CauseDNS},
		{"connection refused", connectCause(live, dial(syscall.ECONNREFUSED)), CauseRefused},
		{"no route to the host", connectCause(live, dial(syscall.EHOSTUNREACH)), CauseUnreachable},
		{"no route to the network", connectCause(live, dial(syscall.ENETUNREACH)), CauseUnreachable},
		{"the connect timeout", connectCause(ended, dial(errors.New("i/o timeout"))), CauseConnectTimeout},
		{"the address refused at connect", connectCause(live, &net.OpError{Op: "dial", Err: errRefused}), CauseAddress},
		{"another dial failure", connectCause(live, dial(syscall.EACCES)), CauseConnect},
		{"the Dialer's own cause", CauseOf(fmt.Errorf("proxy: %w", &Error{Reason: contract.ReasonNetwork, Cause: CauseTLS, Err: tls.AlertError(42)})), CauseTLS},
		{"the deadline before the answer", CauseOf(fmt.Errorf("round trip: %w", context.DeadlineExceeded)), CauseResponseTimeout},
		{"a reset", CauseOf(&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}), CauseReset},
		{"a broken pipe", CauseOf(&net.OpError{Op: "write", Err: os.NewSyscallError("write", syscall.EPIPE)}), CauseReset},
		{"a hang-up", CauseOf(fmt.Errorf("transport: %w", io.EOF)), CauseClosed},
		{"a hang-up mid-head", CauseOf(io.ErrUnexpectedEOF), CauseClosed},
		{"anything else", CauseOf(errors.New("malformed HTTP response")), CauseOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
			if !slices.Contains(Causes(), tc.want) {
				t.Errorf("%q is not in Causes", tc.want)
			}
		})
	}
}
