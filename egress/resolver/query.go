package resolver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/miekg/dns"

	"github.com/rypsok/rypsok/shared/hostname"
)

// result is the answer for one type: the chain, the addresses of its end
// and the smallest TTL of the records used; or an error.
type result struct {
	names []string
	addrs []netip.Addr
	ttl   time.Duration
	err   error
}

// resolve queries name for qtype and, while the chain ends in a CNAME
// whose target has no record in the answer, the target.
func (r *Resolver) resolve(ctx context.Context, name string, qtype uint16) result {
	c := chain{names: []string{name}, ttl: time.Duration(math.MaxInt64), maxHops: r.maxChain, maxAddrs: r.maxAddrs}
	for {
		target := c.last()
		m, err := r.exchange(ctx, target, qtype)
		if err != nil {
			return result{err: err}
		}
		if m.Rcode == dns.RcodeNameError {
			return result{err: fmt.Errorf("%w: %s %s (nxdomain)", ErrNotFound, target, dns.TypeToString[qtype])}
		}
		addrs, err := c.follow(m.Answer, qtype)
		switch {
		case err != nil:
			return result{err: err}
		case len(addrs) > 0:
			return result{names: c.names, addrs: addrs, ttl: c.ttl}
		case c.last() == target:
			return result{err: fmt.Errorf("%w: %s %s (no record)", ErrNotFound, target, dns.TypeToString[qtype])}
		}
	}
}

// chain is the CNAME chain followed so far for one type.
type chain struct {
	names    []string      // queried name, then each target
	ttl      time.Duration // smallest TTL of the records used
	maxHops  int
	maxAddrs int
}

func (c *chain) last() string { return c.names[len(c.names)-1] }

// follow walks the answer section from the last name of the chain: it
// returns the addresses of qtype of that name, or else follows its CNAME
// and tries again. Records of names off the chain are ignored. It returns
// no address and no error when the chain ends without a record.
func (c *chain) follow(answer []dns.RR, qtype uint16) ([]netip.Addr, error) {
	for {
		if addrs := c.addrs(answer, qtype); len(addrs) > 0 {
			return addrs, nil
		}
		ok, err := c.cname(answer)
		if err != nil || !ok {
			return nil, err
		}
	}
}

// addrs returns the first maxAddrs addresses of qtype owned by the last
// name, unmapped.
func (c *chain) addrs(answer []dns.RR, qtype uint16) []netip.Addr {
	var out []netip.Addr
	for _, rr := range answer {
		h := rr.Header()
		if len(out) == c.maxAddrs || h.Rrtype != qtype || h.Class != dns.ClassINET || !owns(h.Name, c.last()) {
			continue
		}
		var ip net.IP
		switch rr := rr.(type) {
		case *dns.A:
			ip = rr.A
		case *dns.AAAA:
			ip = rr.AAAA
		}
		if a, ok := netip.AddrFromSlice(ip); ok {
			out = append(out, a.Unmap())
			c.use(h.Ttl)
		}
	}
	return out
}

// cname appends the target of the last name's CNAME to the chain and
// reports whether there was one.
func (c *chain) cname(answer []dns.RR) (bool, error) {
	for _, rr := range answer {
		cn, ok := rr.(*dns.CNAME)
		if !ok || cn.Hdr.Class != dns.ClassINET || !owns(cn.Hdr.Name, c.last()) {
			continue
		}
		t, err := hostname.NormalizeName(cn.Target)
		switch {
		case err != nil:
			return false, fmt.Errorf("%w: cname target %q of %s", ErrBadName, cn.Target, c.last())
		case len(c.names) > c.maxHops:
			return false, fmt.Errorf("%w: more than %d hops from %s", ErrLoop, c.maxHops, c.names[0])
		}
		for _, n := range c.names {
			if n == t {
				return false, fmt.Errorf("%w: %s points back to %s", ErrLoop, c.last(), t)
			}
		}
		c.names = append(c.names, t)
		c.use(cn.Hdr.Ttl)
		return true, nil
	}
	return false, nil
}

// use lowers the chain's TTL to a record's TTL; a TTL with the high bit
// set counts as zero (RFC 2181, section 8).
func (c *chain) use(ttl uint32) {
	if ttl > math.MaxInt32 {
		ttl = 0
	}
	c.ttl = min(c.ttl, time.Duration(ttl)*time.Second)
}

// owns reports whether owner, a name as the answer spells it (with its
// root dot), is name, a normalized name, comparing ASCII without case.
func owns(owner, name string) bool {
	if len(owner) != len(name)+1 || owner[len(name)] != '.' {
		return false
	}
	for i := range len(name) {
		b := owner[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != name[i] {
			return false
		}
	}
	return true
}

// exchange asks the servers in order for one answer to (name, qtype)
// that is NOERROR or NXDOMAIN. A timeout, another rcode, a network error
// or a malformed reply moves on to the next server.
func (r *Resolver) exchange(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	q := new(dns.Msg)
	q.SetQuestion(dns.Fqdn(name), qtype)
	q.SetEdns0(ednsUDPSize, false)
	var errs serverErrors
	for _, s := range r.servers {
		q.Id = dns.Id()
		m, err := r.ask(ctx, s, q)
		if err == nil {
			return m, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("resolver: query %s %s: %w", name, dns.TypeToString[qtype], ctx.Err())
		}
		errs = append(errs, fmt.Errorf("%s: %w", s, err))
	}
	return nil, fmt.Errorf("resolver: query %s %s: no server answered: %w", name, dns.TypeToString[qtype], errs)
}

// serverErrors are the failures of each server, in order.
type serverErrors []error

func (e serverErrors) Error() string {
	s := make([]string, len(e))
	for i, err := range e {
		s[i] = err.Error()
	}
	return strings.Join(s, "; ")
}

func (e serverErrors) Unwrap() []error { return e }

// ask asks one server over UDP, then over TCP if the reply is truncated,
// and checks the reply.
func (r *Resolver) ask(ctx context.Context, server netip.AddrPort, q *dns.Msg) (*dns.Msg, error) {
	m, err := r.attempt(ctx, "udp", server, q)
	if err == nil && m.Truncated {
		m, err = r.attempt(ctx, "tcp", server, q)
	}
	if err != nil {
		return nil, err
	}
	return m, check(q, m)
}

// attempt sends q to server over network and reads the reply, within
// QueryTimeout and ctx. Ending ctx closes the socket, so that no read
// outlives it.
func (r *Resolver) attempt(ctx context.Context, network string, server netip.AddrPort, q *dns.Msg) (*dns.Msg, error) {
	actx, cancel := context.WithTimeout(ctx, r.queryTimeout)
	defer cancel()
	conn, err := dial(actx, network, server)
	if err == nil {
		defer conn.Close()
		stop := context.AfterFunc(actx, func() { conn.Close() })
		defer stop()
		c := dns.Client{Timeout: r.queryTimeout}
		var m *dns.Msg
		m, _, err = c.ExchangeWithConnContext(actx, q, &dns.Conn{Conn: conn})
		if err == nil {
			return m, nil
		}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The socket's deadline is actx's, whose timer may not have
		// fired yet: wait for it, so that ctx.Err tells whose it was.
		<-actx.Done()
	}
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case actx.Err() != nil:
		return nil, fmt.Errorf("%s: no reply within %v: %w", network, r.queryTimeout, os.ErrDeadlineExceeded)
	}
	return nil, fmt.Errorf("%s: %w", network, err)
}

// dial connects to an address, never to a name.
func dial(ctx context.Context, network string, server netip.AddrPort) (net.Conn, error) {
	var d net.Dialer
	if network == "tcp" {
		c, err := d.DialTCP(ctx, "tcp", netip.AddrPort{}, server)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	c, err := d.DialUDP(ctx, "udp", netip.AddrPort{}, server)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// check reports why m is not an answer to q with a usable rcode.
func check(q, m *dns.Msg) error {
	qq := q.Question[0]
	switch {
	case !m.Response || m.Opcode != dns.OpcodeQuery:
		return errors.New("not a reply to a query")
	case len(m.Question) != 1 || m.Question[0].Qtype != qq.Qtype || m.Question[0].Qclass != dns.ClassINET ||
		!owns(m.Question[0].Name, strings.TrimSuffix(qq.Name, ".")):
		return errors.New("reply to another question")
	case m.Rcode != dns.RcodeSuccess && m.Rcode != dns.RcodeNameError:
		return fmt.Errorf("rcode %s", dns.RcodeToString[m.Rcode])
	}
	return nil
}
