package dialer

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// Public addresses the tests judge; the recording Dial stands in for
// them, so nothing leaves the process.
const (
	public1 = "93.184.215.14"
	public2 = "2001:4860:4860::8888"
)

// fakeResolver answers the n-th lookup with answers[n] (the last one once
// they run out), as a rebinding name server would, or with err, and counts
// the lookups.
type fakeResolver struct {
	answers []resolver.Answer
	err     error

	mu      sync.Mutex
	lookups int
}

func (r *fakeResolver) Lookup(_ context.Context, name string) (resolver.Answer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups++
	if r.err != nil {
		return resolver.Answer{}, r.err
	}
	ans := r.answers[min(r.lookups, len(r.answers))-1]
	if ans.Names == nil {
		ans.Names = []string{name}
	}
	return ans, nil
}

// answer is a resolver answer of addrs.
func answer(addrs ...string) resolver.Answer {
	var a resolver.Answer
	for _, s := range addrs {
		a.Addrs = append(a.Addrs, netip.MustParseAddr(s))
	}
	return a
}

// errHang makes the recorder wait for the dial's context to end.
var errHang = errors.New("hang")

// recorder is a Dial that records the addresses it is asked to connect to
// and answers with one end of a net.Pipe, or fails with fail[address]; it
// never opens a socket.
type recorder struct {
	fail map[string]error

	mu      sync.Mutex
	dialled []string
}

func (r *recorder) dial(ctx context.Context, _, address string) (net.Conn, error) {
	r.mu.Lock()
	r.dialled = append(r.dialled, address)
	r.mu.Unlock()
	switch err := r.fail[address]; err {
	case nil:
		c, other := net.Pipe()
		other.Close()
		return c, nil
	case errHang:
		<-ctx.Done()
		return nil, ctx.Err()
	default:
		return nil, err
	}
}

func hostPort(addr string) string { return net.JoinHostPort(addr, "443") }

func rules(t *testing.T, ss ...string) policy.Rules {
	t.Helper()
	rs, err := policy.ParseRules(ss)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestDialContextDialsOnlyWhatItJudged checks that the dialer connects only
// to addresses the policy admitted after DNS, exactly the ones it judged,
// and answers a refusal or failure with the contract's reason.
func TestDialContextDialsOnlyWhatItJudged(t *testing.T) {
	for _, tc := range []struct {
		name        string
		addr        string
		answers     []resolver.Answer
		resolveErr  error
		allow, deny []string
		noPolicy    bool
		fail        map[string]error
		wantReason  contract.Reason // "" for a connection
		wantRange   policy.Range
		wantDialled []string
		wantLookups int
	}{
		{name: "an allowed address of a name is dialled", addr: "news.example:443",
			answers: []resolver.Answer{answer(public1)}, wantDialled: []string{hostPort(public1)}, wantLookups: 1},
		{name: "a name resolving to a refused address is refused, nothing dialled", addr: "news.example:443",
			answers: []resolver.Answer{answer("127.0.0.1")}, wantReason: contract.ReasonNetwork, wantRange: policy.RangeLoopback, wantLookups: 1},
		{name: "a name resolving to a NAT64 address of loopback is refused", addr: "news.example:443",
			answers: []resolver.Answer{answer("64:ff9b::7f00:1")}, wantReason: contract.ReasonNetwork, wantRange: policy.RangeLoopback, wantLookups: 1},
		{name: "only the admitted addresses of a name are dialled", addr: "news.example:443",
			answers:     []resolver.Answer{answer("10.0.0.1", "fe80::1", public1)},
			wantDialled: []string{hostPort(public1)}, wantLookups: 1},
		{name: "the next admitted address is dialled when one fails", addr: "news.example:443",
			answers:     []resolver.Answer{answer(public1, "10.0.0.1", public2)},
			fail:        map[string]error{hostPort(public1): syscall.ECONNREFUSED},
			wantDialled: []string{hostPort(public1), hostPort(public2)}, wantLookups: 1},
		{name: "a rebinding answer after the check is never dialled", addr: "news.example:443",
			answers:     []resolver.Answer{answer(public1), answer("127.0.0.1")},
			wantDialled: []string{hostPort(public1)}, wantLookups: 1},
		{name: "a name that does not resolve is a network failure", addr: "gone.example:443",
			resolveErr: resolver.ErrNotFound, wantReason: contract.ReasonNetwork, wantLookups: 1},
		{name: "a deny rule on a name of the chain refuses it, nothing dialled", addr: "news.example:443",
			answers: []resolver.Answer{{Names: []string{"news.example", "cdn.blocked.example"}, Addrs: []netip.Addr{netip.MustParseAddr(public1)}}},
			deny:    []string{"*.blocked.example"}, wantReason: contract.ReasonNetwork, wantLookups: 1},
		{name: "a deny rule on the address refuses it, nothing dialled", addr: "news.example:443",
			answers: []resolver.Answer{answer(public1)}, deny: []string{public1}, wantReason: contract.ReasonNetwork, wantLookups: 1},
		{name: "an allow rule on the name admits its loopback address", addr: "intranet.example:443",
			answers: []resolver.Answer{answer("127.0.0.1")}, allow: []string{"intranet.example"}, wantDialled: []string{"127.0.0.1:443"}, wantLookups: 1},
		{name: "the operator's upstream proxy is dialled wherever it is", addr: "proxy.internal:443",
			answers: []resolver.Answer{answer("10.1.2.3")}, noPolicy: true, wantDialled: []string{"10.1.2.3:443"}, wantLookups: 1},
		{name: "an allowed address literal is dialled without a lookup", addr: hostPort(public1),
			wantDialled: []string{hostPort(public1)}},
		{name: "a refused address literal is refused as an address", addr: "127.0.0.1:443",
			wantReason: contract.ReasonAddress, wantRange: policy.RangeLoopback},
		{name: "an IPv4-mapped loopback literal is refused as an address", addr: "[::ffff:127.0.0.1]:443",
			wantReason: contract.ReasonAddress, wantRange: policy.RangeLoopback},
		{name: "every address failing is a network failure", addr: "news.example:443",
			answers:    []resolver.Answer{answer(public1, public2)},
			fail:       map[string]error{hostPort(public1): syscall.ECONNREFUSED, hostPort(public2): syscall.EHOSTUNREACH},
			wantReason: contract.ReasonNetwork, wantDialled: []string{hostPort(public1), hostPort(public2)}, wantLookups: 1},
		{name: "a connect past the connect timeout is a timeout", addr: "news.example:443",
			answers: []resolver.Answer{answer(public1)}, fail: map[string]error{hostPort(public1): errHang},
			wantReason: contract.ReasonTimeout, wantDialled: []string{hostPort(public1)}, wantLookups: 1},
		{name: "port zero is refused", addr: "news.example:0", wantReason: contract.ReasonPort},
		{name: "a named port is refused", addr: "news.example:https", wantReason: contract.ReasonPort},
		{name: "an address without a port is a bad host", addr: "news.example", wantReason: contract.ReasonHost},
		{name: "a malformed name is a bad host", addr: "news..example:443", wantReason: contract.ReasonHost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &fakeResolver{answers: tc.answers, err: tc.resolveErr}
			rec := &recorder{fail: tc.fail}
			d := &Dialer{
				Resolver:       res,
				Policy:         policy.New(policy.Config{Allow: rules(t, tc.allow...), Deny: rules(t, tc.deny...)}),
				Profile:        contract.ProfileAgent,
				NoPolicy:       tc.noPolicy,
				ConnectTimeout: 200 * time.Millisecond,
				Dial:           rec.dial,
			}
			conn, err := d.DialContext(context.Background(), "tcp", tc.addr)
			if tc.wantReason == "" {
				if err != nil {
					t.Fatalf("got %v, want a connection", err)
				}
				conn.Close()
			} else {
				var de *Error
				if !errors.As(err, &de) || de.Reason != tc.wantReason || de.Range != tc.wantRange {
					t.Fatalf("got %v (%#v), want reason %q range %q", err, de, tc.wantReason, tc.wantRange)
				}
			}
			if !slices.Equal(rec.dialled, tc.wantDialled) {
				t.Errorf("dialled %q, want %q", rec.dialled, tc.wantDialled)
			}
			if res.lookups != tc.wantLookups {
				t.Errorf("%d lookups, want %d", res.lookups, tc.wantLookups)
			}
		})
	}
}

// TestSocketCheck checks the judgement made as the socket connects, on the
// address the kernel is given.
func TestSocketCheck(t *testing.T) {
	for _, tc := range []struct {
		name      string
		address   string
		allow     []string
		noPolicy  bool
		wantAllow bool
	}{
		{name: "a public IPv4 address is admitted", address: hostPort(public1), wantAllow: true},
		{name: "a public IPv6 address is admitted", address: hostPort(public2), wantAllow: true},
		{name: "loopback is refused", address: "127.0.0.1:443"},
		{name: "IPv4-mapped loopback is refused", address: "[::ffff:127.0.0.1]:443"},
		{name: "a zoned link-local address is refused", address: "[fe80::1%eth0]:443"},
		{name: "a NAT64 address of a private one is refused", address: "[64:ff9b::a00:1]:443"},
		{name: "the unspecified address is refused", address: "0.0.0.0:443"},
		{name: "an address that does not parse is refused", address: "localhost:443"},
		{name: "an allow rule admits loopback", address: "127.0.0.1:443", allow: []string{"127.0.0.1"}, wantAllow: true},
		{name: "an allow rule on another port does not", address: "127.0.0.1:443", allow: []string{"127.0.0.1:8443"}},
		{name: "the operator's upstream proxy is admitted anywhere", address: "10.1.2.3:3128", noPolicy: true, wantAllow: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ap, err := netip.ParseAddrPort(tc.address)
			port := uint16(443)
			if err == nil {
				port = ap.Port()
			}
			d := &Dialer{Policy: policy.New(policy.Config{Allow: rules(t, tc.allow...)}), Profile: contract.ProfileAgent, NoPolicy: tc.noPolicy}
			target := policy.Target{Profile: contract.ProfileAgent, Port: port}
			err = d.socketCheck(target)("tcp", tc.address, nil)
			if got := err == nil; got != tc.wantAllow {
				t.Errorf("admitted = %v (%v), want %v", got, err, tc.wantAllow)
			}
			if err != nil && !errors.Is(err, errRefused) {
				t.Errorf("got %v, want errRefused", err)
			}
		})
	}
}

// listen returns a loopback listener closed when the test ends.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// firstAccepted dials ln directly and reports whether that connection is
// the first ln accepts: it is, when no earlier connection reached ln.
func firstAccepted(t *testing.T, ln net.Listener) bool {
	t.Helper()
	probe, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.RemoteAddr().String() == probe.LocalAddr().String()
}

// TestTheSocketCheckStopsAConnectToARefusedAddress hands the connecting
// step an address the policy refuses, as a change between the first check
// and the connect would, and checks that the socket is refused before it
// connects: the listener behind the address sees nothing.
func TestTheSocketCheckStopsAConnectToARefusedAddress(t *testing.T) {
	ln := listen(t)
	ap := netip.MustParseAddrPort(ln.Addr().String())
	d := &Dialer{Resolver: &fakeResolver{}, Policy: policy.New(policy.Config{}), Profile: contract.ProfileAgent}
	target := policy.Target{Profile: contract.ProfileAgent, Port: ap.Port()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := d.connectAny(ctx, target, []netip.Addr{ap.Addr()})
	if err == nil {
		conn.Close()
		t.Fatal("connected to a refused address")
	}
	var de *Error
	if !errors.As(err, &de) || de.Reason != contract.ReasonNetwork || !errors.Is(err, errRefused) {
		t.Errorf("got %v, want a network failure refused at connect", err)
	}
	if !firstAccepted(t, ln) {
		t.Error("the refused connect reached the listener")
	}
}

// TestDialContextWithTheNetDialer dials a loopback listener through the
// net.Dialer and its socket check: an address an allow rule admits is
// connected, and holds a slot until closed; without the rule nothing
// reaches the listener.
func TestDialContextWithTheNetDialer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		allow     []string
		wantConn  bool
		wantRange policy.Range
	}{
		{name: "an address an allow rule admits is connected", allow: []string{"intranet.example"}, wantConn: true},
		{name: "without the rule, nothing reaches the listener", wantRange: policy.RangeLoopback},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln := listen(t)
			ap := netip.MustParseAddrPort(ln.Addr().String())
			slots := NewSlots(1)
			d := &Dialer{
				Resolver: &fakeResolver{answers: []resolver.Answer{{Addrs: []netip.Addr{ap.Addr()}}}},
				Policy:   policy.New(policy.Config{Allow: rules(t, tc.allow...)}),
				Profile:  contract.ProfileAgent,
				Slots:    slots,
			}
			conn, err := d.DialContext(context.Background(), "tcp", net.JoinHostPort("intranet.example", strconv.Itoa(int(ap.Port()))))
			if !tc.wantConn {
				var de *Error
				if !errors.As(err, &de) || de.Reason != contract.ReasonNetwork || de.Range != tc.wantRange {
					t.Fatalf("got %v, want a network failure in %q", err, tc.wantRange)
				}
				if !firstAccepted(t, ln) {
					t.Error("the refused dial reached the listener")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if firstAccepted(t, ln) {
				t.Error("the dial did not reach the listener")
			}
			if n := slots.InUse(); n != 1 {
				t.Errorf("%d slots in use with one connection open", n)
			}
			conn.Close()
			if n := slots.InUse(); n != 0 {
				t.Errorf("%d slots in use after close", n)
			}
		})
	}
}

// TestDialTLSContext completes a TLS handshake with a loopback server
// named by a name an allow rule admits, and answers a handshake that fails
// verification as a network failure.
func TestDialTLSContext(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	for _, tc := range []struct {
		name    string
		roots   *x509.CertPool
		wantErr bool
	}{
		{name: "the server's roots verify it", roots: roots},
		{name: "other roots do not: a network failure", roots: x509.NewCertPool(), wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Dialer{
				Resolver: &fakeResolver{answers: []resolver.Answer{{Addrs: []netip.Addr{ap.Addr()}}}},
				Policy:   policy.New(policy.Config{Allow: rules(t, "example.com")}),
				Profile:  contract.ProfileAgent,
				RootCAs:  tc.roots,
			}
			// httptest's certificate names example.com.
			conn, err := d.DialTLSContext(context.Background(), "tcp", net.JoinHostPort("example.com", strconv.Itoa(int(ap.Port()))))
			if !tc.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				conn.Close()
				return
			}
			var de *Error
			if !errors.As(err, &de) || de.Reason != contract.ReasonNetwork {
				t.Errorf("got %v, want a network failure", err)
			}
		})
	}
}
