package resolver

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/rypsok/rypsok/shared/hostname"
)

// chainZone returns a zone where prefix0.test. is a chain of hops CNAMEs
// in one answer, ending at an A record.
func chainZone(t *testing.T, prefix string, hops int) map[string]reply {
	var lines []string
	for i := range hops {
		lines = append(lines, fmt.Sprintf("%s%d.test. 60 IN CNAME %s%d.test.", prefix, i, prefix, i+1))
	}
	lines = append(lines, fmt.Sprintf("%s%d.test. 60 IN A 192.0.2.1", prefix, hops))
	return map[string]reply{prefix + "0.test. *": {answer: rrs(t, lines...)}}
}

func chainNames(prefix string, hops int) []string {
	var out []string
	for i := range hops + 1 {
		out = append(out, fmt.Sprintf("%s%d.test", prefix, i))
	}
	return out
}

func addrs(ss ...string) []netip.Addr {
	out := make([]netip.Addr, 0, len(ss))
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

func TestLookup(t *testing.T) {
	var many []string
	var manyAddrs []string
	for i := range 20 {
		many = append(many, fmt.Sprintf("many.test. 60 IN A 192.0.2.%d", i+1))
		if i < defaultMaxAddrs {
			manyAddrs = append(manyAddrs, fmt.Sprintf("192.0.2.%d", i+1))
		}
	}
	tests := []struct {
		name    string
		zone    map[string]reply
		lookup  string
		want    Answer
		wantErr error
	}{
		{
			name:   "a name with only an A record answers its address",
			zone:   map[string]reply{"v4.test. A": {answer: rrs(t, "v4.test. 60 IN A 192.0.2.1")}},
			lookup: "v4.test",
			want:   Answer{Names: []string{"v4.test"}, Addrs: addrs("192.0.2.1")},
		},
		{
			name:   "a name with only an AAAA record answers its address",
			zone:   map[string]reply{"v6.test. AAAA": {answer: rrs(t, "v6.test. 60 IN AAAA 2001:db8::1")}},
			lookup: "v6.test",
			want:   Answer{Names: []string{"v6.test"}, Addrs: addrs("2001:db8::1")},
		},
		{
			name: "a name with both records answers A then AAAA in record order",
			zone: map[string]reply{
				"both.test. A":    {answer: rrs(t, "both.test. 60 IN A 192.0.2.2", "both.test. 60 IN A 192.0.2.1")},
				"both.test. AAAA": {answer: rrs(t, "both.test. 60 IN AAAA 2001:db8::2", "both.test. 60 IN AAAA 2001:db8::1")},
			},
			lookup: "both.test",
			want:   Answer{Names: []string{"both.test"}, Addrs: addrs("192.0.2.2", "192.0.2.1", "2001:db8::2", "2001:db8::1")},
		},
		{
			name:   "an IPv4-mapped AAAA is unmapped",
			zone:   map[string]reply{"mapped.test. AAAA": {answer: rrs(t, "mapped.test. 60 IN AAAA ::ffff:127.0.0.1")}},
			lookup: "mapped.test",
			want:   Answer{Names: []string{"mapped.test"}, Addrs: addrs("127.0.0.1")},
		},
		{
			name: "an address in both families is listed once",
			zone: map[string]reply{
				"dup.test. A":    {answer: rrs(t, "dup.test. 60 IN A 192.0.2.7")},
				"dup.test. AAAA": {answer: rrs(t, "dup.test. 60 IN AAAA ::ffff:192.0.2.7")},
			},
			lookup: "dup.test",
			want:   Answer{Names: []string{"dup.test"}, Addrs: addrs("192.0.2.7")},
		},
		{
			name:   "the name is normalized before the query",
			zone:   map[string]reply{"mixed.test. A": {answer: rrs(t, "mixed.test. 60 IN A 192.0.2.1")}},
			lookup: "MiXeD.TEST.",
			want:   Answer{Names: []string{"mixed.test"}, Addrs: addrs("192.0.2.1")},
		},
		{
			name:   "owner names in the answer compare without case",
			zone:   map[string]reply{"case.test. A": {answer: rrs(t, "CASE.Test. 60 IN A 192.0.2.1")}},
			lookup: "case.test",
			want:   Answer{Names: []string{"case.test"}, Addrs: addrs("192.0.2.1")},
		},
		{
			name:    "NXDOMAIN is not found",
			zone:    map[string]reply{},
			lookup:  "nx.test",
			wantErr: ErrNotFound,
		},
		{
			name:    "an empty answer to both types is not found",
			zone:    map[string]reply{"empty.test. A": {}, "empty.test. AAAA": {}},
			lookup:  "empty.test",
			wantErr: ErrNotFound,
		},
		{
			name: "a CNAME chain inside one answer is followed",
			zone: map[string]reply{"www.test. *": {answer: rrs(t,
				"www.test. 60 IN CNAME edge.test.",
				"edge.test. 60 IN CNAME host.cdn.test.",
				"host.cdn.test. 60 IN A 192.0.2.3",
				"host.cdn.test. 60 IN AAAA 2001:db8::3",
			)}},
			lookup: "www.test",
			want:   Answer{Names: []string{"www.test", "edge.test", "host.cdn.test"}, Addrs: addrs("192.0.2.3", "2001:db8::3")},
		},
		{
			name: "a CNAME whose target is not in the answer is queried again",
			zone: map[string]reply{
				"alias.test. *":  {answer: rrs(t, "alias.test. 60 IN CNAME Real.Test.")},
				"real.test. A":   {answer: rrs(t, "real.test. 60 IN A 192.0.2.5")},
				"real.test. TXT": {},
			},
			lookup: "alias.test",
			want:   Answer{Names: []string{"alias.test", "real.test"}, Addrs: addrs("192.0.2.5")},
		},
		{
			name: "a CNAME loop inside one answer is a loop",
			zone: map[string]reply{"l1.test. *": {answer: rrs(t,
				"l1.test. 60 IN CNAME l2.test.",
				"l2.test. 60 IN CNAME l1.test.",
			)}},
			lookup:  "l1.test",
			wantErr: ErrLoop,
		},
		{
			name: "a CNAME loop across two queries is a loop",
			zone: map[string]reply{
				"q1.test. *": {answer: rrs(t, "q1.test. 60 IN CNAME q2.test.")},
				"q2.test. *": {answer: rrs(t, "q2.test. 60 IN CNAME q1.test.")},
			},
			lookup:  "q1.test",
			wantErr: ErrLoop,
		},
		{
			name:    "a CNAME to itself is a loop",
			zone:    map[string]reply{"self.test. *": {answer: rrs(t, "self.test. 60 IN CNAME SELF.test.")}},
			lookup:  "self.test",
			wantErr: ErrLoop,
		},
		{
			name:   "a chain of exactly MaxChain hops is followed",
			zone:   chainZone(t, "c", defaultMaxChain),
			lookup: "c0.test",
			want:   Answer{Names: chainNames("c", defaultMaxChain), Addrs: addrs("192.0.2.1")},
		},
		{
			name:    "a chain of MaxChain+1 hops is a loop",
			zone:    chainZone(t, "d", defaultMaxChain+1),
			lookup:  "d0.test",
			wantErr: ErrLoop,
		},
		{
			name:    "a CNAME target with a dot inside a label is a bad name",
			zone:    map[string]reply{"bad.test. *": {answer: rrs(t, `bad.test. 60 IN CNAME a\.b.test.`)}},
			lookup:  "bad.test",
			wantErr: ErrBadName,
		},
		{
			name:    "a CNAME target with a space is a bad name",
			zone:    map[string]reply{"bad.test. *": {answer: rrs(t, `bad.test. 60 IN CNAME a\032b.test.`)}},
			lookup:  "bad.test",
			wantErr: ErrBadName,
		},
		{
			name: "records of names off the chain are ignored",
			zone: map[string]reply{"on.test. A": {answer: rrs(t,
				"off.test. 60 IN A 198.51.100.1",
				"off.test. 60 IN CNAME on.test.",
				"on.test.off.test. 60 IN A 198.51.100.2",
				"on.test. 60 IN A 192.0.2.9",
				"on.test. 60 IN AAAA 2001:db8::9",
			)}},
			lookup: "on.test",
			want:   Answer{Names: []string{"on.test"}, Addrs: addrs("192.0.2.9")},
		},
		{
			name: "records of another class are ignored",
			zone: map[string]reply{"class.test. A": {answer: rrs(t,
				"class.test. 60 CH A 198.51.100.1",
				"class.test. 60 IN A 192.0.2.1",
			)}},
			lookup: "class.test",
			want:   Answer{Names: []string{"class.test"}, Addrs: addrs("192.0.2.1")},
		},
		{
			name: "one family failing does not hide the other's addresses",
			zone: map[string]reply{
				"half.test. A":    {rcode: dns.RcodeServerFailure},
				"half.test. AAAA": {answer: rrs(t, "half.test. 60 IN AAAA 2001:db8::5")},
			},
			lookup: "half.test",
			want:   Answer{Names: []string{"half.test"}, Addrs: addrs("2001:db8::5")},
		},
		{
			name: "only the first MaxAddrs addresses are kept",
			zone: map[string]reply{
				"many.test. A":    {answer: rrs(t, many...)},
				"many.test. AAAA": {answer: rrs(t, "many.test. 60 IN AAAA 2001:db8::1")},
			},
			lookup: "many.test",
			want:   Answer{Names: []string{"many.test"}, Addrs: addrs(manyAddrs...)},
		},
		{
			name:   "a name of exactly 253 octets is looked up",
			zone:   map[string]reply{},
			lookup: strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 61),
			// NXDOMAIN: the question was sent and answered.
			wantErr: ErrNotFound,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, zone(tt.zone))
			r := newResolver(t, Config{QueryTimeout: time.Second}, srv.addr)
			got, err := r.Lookup(t.Context(), tt.lookup)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Lookup(%q) error = %v, want %v", tt.lookup, err, tt.wantErr)
				}
				if got.Names != nil || got.Addrs != nil {
					t.Errorf("Lookup(%q) = %v with an error, want the zero Answer", tt.lookup, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Lookup(%q) error = %v", tt.lookup, err)
			}
			if !slices.Equal(got.Names, tt.want.Names) {
				t.Errorf("Names = %q, want %q", got.Names, tt.want.Names)
			}
			if !slices.Equal(got.Addrs, tt.want.Addrs) {
				t.Errorf("Addrs = %v, want %v", got.Addrs, tt.want.Addrs)
			}
		})
	}
}

func TestLookupErrorsWhenEveryFamilyFails(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{"sf.test. *": {rcode: dns.RcodeServerFailure}}))
	r := newResolver(t, Config{QueryTimeout: time.Second}, srv.addr)
	_, err := r.Lookup(t.Context(), "sf.test")
	if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "SERVFAIL") {
		t.Fatalf("Lookup error = %v, want a SERVFAIL failure that is not ErrNotFound", err)
	}
	if !strings.HasPrefix(err.Error(), "resolver: ") {
		t.Errorf("error %q lacks the package prefix", err)
	}
}

func TestLookupRefusesBadNamesWithoutQuery(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{}))
	r := newResolver(t, Config{QueryTimeout: time.Second}, srv.addr)
	tests := []struct {
		name   string
		lookup string
	}{
		{"an empty name is refused", ""},
		{"the root alone is refused", "."},
		{"an empty label is refused", "a..b"},
		{"a leading dot is refused", ".a.test"},
		{"a space is refused", "a b.test"},
		{"a name of 254 octets is refused", strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 62)},
		{"a label of 64 octets is refused", strings.Repeat("a", 64) + ".test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Lookup(t.Context(), tt.lookup)
			if !errors.Is(err, ErrBadName) || !errors.Is(err, hostname.ErrBadHost) {
				t.Errorf("Lookup(%q) error = %v, want ErrBadName wrapping hostname.ErrBadHost", tt.lookup, err)
			}
		})
	}
	if _, total := srv.queries(""); total != 0 {
		t.Errorf("server got %d queries for bad names, want 0", total)
	}
}

func TestLookupServers(t *testing.T) {
	const qt = 200 * time.Millisecond
	const margin = time.Second
	good := func(t *testing.T) string {
		return startServer(t, zone(map[string]reply{"x.test. A": {answer: rrs(t, "x.test. 60 IN A 192.0.2.1")}})).addr
	}
	answering := func(rep reply) func(t *testing.T) string {
		return func(t *testing.T) string {
			return startServer(t, func(dns.Question, bool) reply { return rep }).addr
		}
	}
	tests := []struct {
		name    string
		servers []func(t *testing.T) string
		within  time.Duration
	}{
		{"a silent first server gives way to the second", []func(*testing.T) string{silentServer, good}, qt + margin},
		{"a closed port gives way to the next server", []func(*testing.T) string{closedPort, good}, margin},
		{"SERVFAIL gives way to the next server", []func(*testing.T) string{answering(reply{rcode: dns.RcodeServerFailure}), good}, margin},
		{"REFUSED gives way to the next server", []func(*testing.T) string{answering(reply{rcode: dns.RcodeRefused}), good}, margin},
		{"a reply to another question gives way to the next server", []func(*testing.T) string{
			answering(reply{question: "evil.test.", answer: rrs(t, "evil.test. 60 IN A 198.51.100.1")}), good,
		}, margin},
		{"two silent servers then an answer take two query timeouts", []func(*testing.T) string{silentServer, silentServer, good}, 2*qt + margin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var servers []string
			for _, s := range tt.servers {
				servers = append(servers, s(t))
			}
			r := newResolver(t, Config{QueryTimeout: qt}, servers...)
			start := time.Now()
			got, err := r.Lookup(t.Context(), "x.test")
			if elapsed := time.Since(start); elapsed > tt.within {
				t.Errorf("Lookup took %v, want at most %v", elapsed, tt.within)
			}
			if err != nil {
				t.Fatalf("Lookup error = %v", err)
			}
			if want := addrs("192.0.2.1"); !slices.Equal(got.Addrs, want) {
				t.Errorf("Addrs = %v, want %v", got.Addrs, want)
			}
		})
	}
}

func TestLookupTruncatedRetriesOverTCP(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{"big.test. A": {
		tc:        true,
		udpAnswer: rrs(t, "big.test. 60 IN A 198.51.100.99"),
		answer:    rrs(t, "big.test. 60 IN A 192.0.2.1", "big.test. 60 IN A 192.0.2.2"),
	}}))
	r := newResolver(t, Config{QueryTimeout: time.Second}, srv.addr)
	got, err := r.Lookup(t.Context(), "big.test")
	if err != nil {
		t.Fatal(err)
	}
	if want := addrs("192.0.2.1", "192.0.2.2"); !slices.Equal(got.Addrs, want) {
		t.Errorf("Addrs = %v, want the TCP answer %v", got.Addrs, want)
	}
	if n := srv.tcpQueries(); n != 1 {
		t.Errorf("TCP queries = %d, want 1", n)
	}
}

func TestLookupSilentServersFailWithinBound(t *testing.T) {
	const qt = 150 * time.Millisecond
	r := newResolver(t, Config{QueryTimeout: qt}, silentServer(t), silentServer(t))
	start := time.Now()
	_, err := r.Lookup(t.Context(), "x.test")
	elapsed := time.Since(start)
	if err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("Lookup error = %v, want a failure that is not ErrNotFound", err)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want a query timeout (os.ErrDeadlineExceeded), not the context's", err)
	}
	if elapsed < 2*qt || elapsed > 2*qt+time.Second {
		t.Errorf("Lookup took %v, want two query timeouts (%v) plus a margin", elapsed, 2*qt)
	}
}

func TestLookupContextDeadline(t *testing.T) {
	r := newResolver(t, Config{QueryTimeout: time.Second}, silentServer(t), silentServer(t))
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := r.Lookup(ctx, "x.test")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lookup error = %v, want context.DeadlineExceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 150*time.Millisecond+time.Second {
		t.Errorf("Lookup took %v after a 150ms deadline", elapsed)
	}
}

func TestLookupCancelReturnsPromptlyWithoutLeak(t *testing.T) {
	first := startBlackhole(t)
	r := newResolver(t, Config{}, first.addr, silentServer(t))
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := r.Lookup(ctx, "x.test")
		done <- err
	}()
	waitFor(t, "the A and AAAA queries at the first server", func() bool { return first.received.Load() >= 2 })
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Lookup error = %v, want context.Canceled", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Lookup did not return within 1s of cancel")
	}
	if elapsed := time.Since(start); elapsed >= r.queryTimeout {
		t.Errorf("Lookup took %v, want less than one query timeout", elapsed)
	}
	waitFor(t, "goroutines back to their number before Lookup", func() bool { return runtime.NumGoroutine() <= before })
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (goroutines: %d)", what, runtime.NumGoroutine())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLookupConcurrent(t *testing.T) {
	srv := startServer(t, zone(map[string]reply{
		"a.test. A":    {answer: rrs(t, "a.test. 60 IN A 192.0.2.1")},
		"b.test. AAAA": {answer: rrs(t, "b.test. 60 IN AAAA 2001:db8::1")},
	}))
	r := newResolver(t, Config{QueryTimeout: time.Second, CacheSize: 1}, srv.addr)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			name := []string{"a.test", "b.test"}[i%2]
			if _, err := r.Lookup(t.Context(), name); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
