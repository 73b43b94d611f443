// Package resolver looks up A and AAAA records with github.com/miekg/dns
// against configured servers, follows bounded CNAME chains and caches
// answers by TTL. It never uses Go's resolver and judges no address (the
// policy does).
package resolver

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/rypsok/rypsok/shared/hostname"
	"github.com/rypsok/rypsok/shared/limits"
)

// ErrNotFound is returned when the name does not exist (NXDOMAIN) or when
// the end of its CNAME chain has neither an A nor an AAAA record.
var ErrNotFound = errors.New("resolver: name not found")

// ErrBadName is returned for a malformed name to look up, or for a CNAME
// target that is not a well-formed name. It wraps hostname.ErrBadHost.
var ErrBadName = fmt.Errorf("resolver: malformed name: %w", hostname.ErrBadHost)

// ErrLoop is returned for a CNAME chain that loops or has more than
// Config.MaxChain hops.
var ErrLoop = errors.New("resolver: cname chain loops or is too long")

// Defaults of the Config fields that have no limit of their own.
const (
	defaultPort     = 53
	defaultMaxChain = 8
	defaultMaxAddrs = 16
	ednsUDPSize     = 1232
)

// Config configures a Resolver. Only Servers is required.
type Config struct {
	// Servers are the addresses of the recursive servers, "ip:port" or
	// "ip" (port 53); an IPv6 address with a port is bracketed. They are
	// tried in order. At least one is required.
	Servers []string
	// QueryTimeout bounds the wait for one answer to one query from one
	// server (UDP, and again TCP after a truncated reply). Zero means
	// limits.E1DNSQueryWait, which is also its ceiling.
	QueryTimeout time.Duration
	// CacheSize is the number of (name, type) answers cached. Zero means
	// limits.E2DNSCacheSize, which is also its ceiling; negative disables
	// the cache.
	CacheSize int
	// MaxTTL caps how long an answer stays cached, whatever its TTL. Zero
	// means limits.E2DNSCacheTTLMax, which is also its ceiling.
	MaxTTL time.Duration
	// MaxChain is the number of CNAME hops followed from the queried name.
	// Zero means 8.
	MaxChain int
	// MaxAddrs is the number of addresses an Answer holds at most: the
	// first A records, then the first AAAA records. Zero means 16.
	MaxAddrs int
	// Now is the clock of the cache. Nil means time.Now.
	Now func() time.Time
}

// Resolver looks up names. It is safe for concurrent use.
type Resolver struct {
	servers      []netip.AddrPort
	queryTimeout time.Duration
	maxTTL       time.Duration
	maxChain     int
	maxAddrs     int
	now          func() time.Time
	cache        *cache // nil when disabled
}

// Answer is the result of a lookup.
type Answer struct {
	// Names is the chain: the queried name, then each CNAME target in
	// order, all normalized. When the A and AAAA chains differ, the names
	// of the AAAA chain not in the A chain follow it.
	Names []string
	// Addrs are the A then the AAAA addresses (unmapped) of the end of the
	// chain, without duplicates. It is empty only with an error.
	Addrs []netip.Addr
}

// New returns a Resolver for cfg, or an error naming the field that is
// not valid.
func New(cfg Config) (*Resolver, error) {
	if len(cfg.Servers) == 0 {
		return nil, errors.New("resolver: Servers: at least one server is required")
	}
	servers := make([]netip.AddrPort, 0, len(cfg.Servers))
	for _, s := range cfg.Servers {
		ap, err := parseServer(s)
		if err != nil {
			return nil, err
		}
		servers = append(servers, ap)
	}
	r := &Resolver{
		servers:      servers,
		queryTimeout: orDefault(cfg.QueryTimeout, limits.E1DNSQueryWait),
		maxTTL:       orDefault(cfg.MaxTTL, limits.E2DNSCacheTTLMax),
		maxChain:     orDefault(cfg.MaxChain, defaultMaxChain),
		maxAddrs:     orDefault(cfg.MaxAddrs, defaultMaxAddrs),
		now:          cfg.Now,
	}
	if r.now == nil {
		r.now = time.Now
	}
	switch {
	case r.queryTimeout < 0 || r.queryTimeout > limits.E1DNSQueryWait:
		return nil, fmt.Errorf("resolver: QueryTimeout %v: not in (0, %v]", cfg.QueryTimeout, limits.E1DNSQueryWait)
	case r.maxTTL < 0 || r.maxTTL > limits.E2DNSCacheTTLMax:
		return nil, fmt.Errorf("resolver: MaxTTL %v: not in (0, %v]", cfg.MaxTTL, limits.E2DNSCacheTTLMax)
	case cfg.CacheSize > limits.E2DNSCacheSize:
		return nil, fmt.Errorf("resolver: CacheSize %d: above %d", cfg.CacheSize, limits.E2DNSCacheSize)
	case r.maxChain < 0:
		return nil, fmt.Errorf("resolver: MaxChain %d: negative", cfg.MaxChain)
	case r.maxAddrs < 0:
		return nil, fmt.Errorf("resolver: MaxAddrs %d: negative", cfg.MaxAddrs)
	}
	if cfg.CacheSize >= 0 {
		r.cache = newCache(orDefault(cfg.CacheSize, limits.E2DNSCacheSize))
	}
	return r, nil
}

// parseServer parses "ip:port" or "ip", adding port 53.
func parseServer(s string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		ap, err = netip.ParseAddrPort(s + fmt.Sprintf(":%d", defaultPort))
	}
	switch {
	case err != nil:
		return netip.AddrPort{}, fmt.Errorf("resolver: server %q: not ip:port", s)
	case ap.Port() == 0:
		return netip.AddrPort{}, fmt.Errorf("resolver: server %q: port 0", s)
	case ap.Addr().IsUnspecified():
		return netip.AddrPort{}, fmt.Errorf("resolver: server %q: unspecified address", s)
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}

func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// Len returns the number of cached (name, type) answers, expired ones
// included until they are next looked up or evicted.
func (r *Resolver) Len() int {
	if r.cache == nil {
		return 0
	}
	return r.cache.len()
}

// Lookup returns the chain and the addresses of name. It queries A and
// AAAA at once and waits for both; if one fails and the other has
// addresses, those are returned without error. Errors are ErrBadName,
// ErrNotFound, ErrLoop, or a wrapped failure to get an answer, which
// wraps ctx's error when ctx ended first (and os.ErrDeadlineExceeded when
// only QueryTimeout did). Each query waits at most QueryTimeout per server
// and transport, and a chain needs up to MaxChain+1 queries, so callers
// bound the whole lookup with ctx. On error the Answer is zero.
func (r *Resolver) Lookup(ctx context.Context, name string) (Answer, error) {
	n, err := hostname.NormalizeName(name)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %q", ErrBadName, name)
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, fmt.Errorf("resolver: lookup %s: %w", n, err)
	}
	var a, aaaa result
	var wg sync.WaitGroup
	wg.Go(func() { a = r.family(ctx, n, dns.TypeA) })
	wg.Go(func() { aaaa = r.family(ctx, n, dns.TypeAAAA) })
	wg.Wait()
	return r.merge(n, a, aaaa)
}

// merge combines the answers of the two families.
func (r *Resolver) merge(name string, a, aaaa result) (Answer, error) {
	if len(a.addrs) == 0 && len(aaaa.addrs) == 0 {
		for _, err := range []error{a.err, aaaa.err} {
			if err != nil && !errors.Is(err, ErrNotFound) {
				return Answer{}, err
			}
		}
		return Answer{}, fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	ans := Answer{Names: []string{name}}
	for _, res := range []result{a, aaaa} {
		if len(res.addrs) == 0 {
			continue
		}
		for _, n := range res.names {
			if !slices.Contains(ans.Names, n) {
				ans.Names = append(ans.Names, n)
			}
		}
		for _, ad := range res.addrs {
			if len(ans.Addrs) < r.maxAddrs && !slices.Contains(ans.Addrs, ad) {
				ans.Addrs = append(ans.Addrs, ad)
			}
		}
	}
	return ans, nil
}

// family answers one type for name, from the cache or from the servers,
// and caches a positive answer whose TTL is not zero.
func (r *Resolver) family(ctx context.Context, name string, qtype uint16) result {
	k := key{name: name, qtype: qtype}
	if r.cache != nil {
		if e, ok := r.cache.get(k, r.now()); ok {
			return result{names: e.names, addrs: e.addrs}
		}
	}
	res := r.resolve(ctx, name, qtype)
	if r.cache != nil && res.err == nil && res.ttl > 0 {
		r.cache.put(k, entry{names: res.names, addrs: res.addrs, expiry: r.now().Add(min(res.ttl, r.maxTTL))})
	}
	return res
}
