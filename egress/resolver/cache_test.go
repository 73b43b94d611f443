package resolver

import (
	"net/netip"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
)

func TestLookupCache(t *testing.T) {
	type step struct {
		advance     time.Duration // clock move before the lookup
		wantQueries int           // A queries at the server so far
	}
	tests := []struct {
		name   string
		zone   map[string]reply
		maxTTL time.Duration
		steps  []step
	}{
		{
			name: "an answer is served from the cache until its TTL passes",
			zone: map[string]reply{
				"c.test. A":    {answer: rrs(t, "c.test. 60 IN A 192.0.2.1")},
				"c.test. AAAA": {answer: rrs(t, "c.test. 60 IN AAAA 2001:db8::1")},
			},
			steps: []step{{0, 1}, {59 * time.Second, 1}, {time.Second, 2}, {time.Second, 2}},
		},
		{
			name: "a TTL above MaxTTL is capped at MaxTTL",
			zone: map[string]reply{
				"c.test. A":    {answer: rrs(t, "c.test. 86400 IN A 192.0.2.1")},
				"c.test. AAAA": {answer: rrs(t, "c.test. 86400 IN AAAA 2001:db8::1")},
			},
			maxTTL: 30 * time.Second,
			steps:  []step{{0, 1}, {29 * time.Second, 1}, {time.Second, 2}},
		},
		{
			name: "the smallest TTL of the chain bounds the cache",
			zone: map[string]reply{"c.test. *": {answer: rrs(t,
				"c.test. 10 IN CNAME d.test.",
				"d.test. 300 IN A 192.0.2.1",
				"d.test. 300 IN AAAA 2001:db8::1",
			)}},
			steps: []step{{0, 1}, {9 * time.Second, 1}, {time.Second, 2}},
		},
		{
			name: "a TTL with the high bit set counts as zero",
			zone: map[string]reply{
				"c.test. A":    {answer: rrs(t, "c.test. 2147483648 IN A 192.0.2.1")},
				"c.test. AAAA": {answer: rrs(t, "c.test. 60 IN AAAA 2001:db8::1")},
			},
			steps: []step{{0, 1}, {0, 2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, zone(tt.zone))
			clock := newFakeClock()
			r := newResolver(t, Config{QueryTimeout: time.Second, MaxTTL: tt.maxTTL, Now: clock.Now}, srv.addr)
			for i, s := range tt.steps {
				clock.Advance(s.advance)
				got, err := r.Lookup(t.Context(), "c.test")
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if want := addrs("192.0.2.1", "2001:db8::1"); !slices.Equal(got.Addrs, want) {
					t.Errorf("step %d: Addrs = %v, want %v", i, got.Addrs, want)
				}
				if n, _ := srv.queries("c.test. A"); n != s.wantQueries {
					t.Errorf("step %d: A queries = %d, want %d", i, n, s.wantQueries)
				}
			}
		})
	}
}

func TestLookupCacheServesWithoutAnyQuery(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{"c.test. *": {answer: rrs(t,
		"c.test. 60 IN CNAME d.test.",
		"d.test. 60 IN A 192.0.2.1",
		"d.test. 60 IN AAAA 2001:db8::1",
	)}}))
	r := newResolver(t, Config{QueryTimeout: time.Second, Now: newFakeClock().Now}, srv.addr)
	first, err := r.Lookup(t.Context(), "c.test")
	if err != nil {
		t.Fatal(err)
	}
	_, before := srv.queries("")
	second, err := r.Lookup(t.Context(), "c.test")
	if err != nil {
		t.Fatal(err)
	}
	if _, after := srv.queries(""); after != before {
		t.Errorf("second lookup sent %d queries, want 0", after-before)
	}
	if !slices.Equal(first.Names, second.Names) || !slices.Equal(first.Addrs, second.Addrs) {
		t.Errorf("cached answer %v, want %v", second, first)
	}
	if r.Len() != 2 {
		t.Errorf("Len() = %d, want 2 (A and AAAA)", r.Len())
	}
	// The caller owns the Answer: changing it must not change the cache.
	second.Names[0], second.Addrs[0] = "changed.test", netip.MustParseAddr("198.51.100.1")
	third, _ := r.Lookup(t.Context(), "c.test")
	if !slices.Equal(first.Names, third.Names) || !slices.Equal(first.Addrs, third.Addrs) {
		t.Errorf("after the caller changed an Answer, cached answer %v, want %v", third, first)
	}
}

func TestLookupTTLZeroIsNeverCached(t *testing.T) {
	var n atomic.Int32
	srv := startServer(t, func(q dns.Question, _ bool) reply {
		if q.Qtype != dns.TypeA {
			return reply{}
		}
		addr := "93.184.216.34"
		if n.Add(1) > 1 {
			addr = "127.0.0.1"
		}
		return reply{answer: rrs(t, "rebind.test. 0 IN A "+addr)}
	})
	r := newResolver(t, Config{QueryTimeout: time.Second, Now: newFakeClock().Now}, srv.addr)
	for i, want := range []string{"93.184.216.34", "127.0.0.1"} {
		got, err := r.Lookup(t.Context(), "rebind.test")
		if err != nil {
			t.Fatal(err)
		}
		if w := addrs(want); !slices.Equal(got.Addrs, w) {
			t.Errorf("lookup %d: Addrs = %v, want %v", i, got.Addrs, w)
		}
	}
	if r.Len() != 0 {
		t.Errorf("Len() = %d, want 0", r.Len())
	}
}

func TestLookupCacheEvictsLeastRecentlyUsed(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{
		"a.test. A": {answer: rrs(t, "a.test. 60 IN A 192.0.2.1")},
		"b.test. A": {answer: rrs(t, "b.test. 60 IN A 192.0.2.2")},
		"c.test. A": {answer: rrs(t, "c.test. 60 IN A 192.0.2.3")},
	}))
	r := newResolver(t, Config{QueryTimeout: time.Second, CacheSize: 2, Now: newFakeClock().Now}, srv.addr)
	for _, name := range []string{"a.test", "b.test", "a.test", "c.test"} {
		if _, err := r.Lookup(t.Context(), name); err != nil {
			t.Fatal(err)
		}
	}
	if r.Len() != 2 {
		t.Errorf("Len() = %d, want 2", r.Len())
	}
	// b.test was the least recently used when c.test came in.
	for _, tt := range []struct {
		name string
		want int
	}{{"a.test", 1}, {"c.test", 1}, {"b.test", 2}} {
		if _, err := r.Lookup(t.Context(), tt.name); err != nil {
			t.Fatal(err)
		}
		if n, _ := srv.queries(tt.name + ". A"); n != tt.want {
			t.Errorf("%s: A queries = %d, want %d", tt.name, n, tt.want)
		}
	}
}

func TestLookupNegativeCacheSizeDisablesCache(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{"a.test. A": {answer: rrs(t, "a.test. 60 IN A 192.0.2.1")}}))
	r := newResolver(t, Config{QueryTimeout: time.Second, CacheSize: -1}, srv.addr)
	for range 2 {
		if _, err := r.Lookup(t.Context(), "a.test"); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := srv.queries("a.test. A"); n != 2 || r.Len() != 0 {
		t.Errorf("A queries = %d, Len() = %d; want 2 and 0", n, r.Len())
	}
}

func TestLookupNotFoundIsNotCached(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{}))
	r := newResolver(t, Config{QueryTimeout: time.Second}, srv.addr)
	for range 2 {
		_, _ = r.Lookup(t.Context(), "nx.test")
	}
	if n, _ := srv.queries("nx.test. A"); n != 2 || r.Len() != 0 {
		t.Errorf("A queries = %d, Len() = %d; want 2 and 0", n, r.Len())
	}
}
