package sharedstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/sharedstate/redistest"
	"github.com/rypsok/rypsok/shared/limits"
)

// open opens a store on srv, its transitions sent on the returned channel
// and its log in the returned buffer, which may be read once a transition
// was received (the store writes the line before it tells OnState).
func open(t *testing.T, url string, o Options) (*Store, <-chan bool, *bytes.Buffer) {
	t.Helper()
	states := make(chan bool, 16)
	log := &bytes.Buffer{}
	o.URL = url
	if o.Prefix == "" {
		o.Prefix = "test"
	}
	o.Log = zerolog.New(zerolog.SyncWriter(log))
	o.OnState = func(up bool) { states <- up }
	s, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, states, log
}

// TestTwoReplicasKeepThePace is the pacing demonstration against the
// primitive (the search pipeline's pacer is wired to it separately): two
// stores, as two replicas, make 16 concurrent reservations of one bucket
// paced at 2/s with a burst of 2, each sending its request to a loopback
// fake provider when its slot comes; the provider sees at most rate +
// burst requests in any second, and the 16 take the time the pace says.
func TestTwoReplicasKeepThePace(t *testing.T) {
	srv := redistest.Start(t)
	a, _, _ := open(t, srv.URL(), Options{})
	b, _, _ := open(t, srv.URL(), Options{})
	const rate, burst, n = 2.0, 2, 16
	var mu sync.Mutex
	var arrivals []time.Time
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
	}))
	defer provider.Close()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		s := []*Store{a, b}[i%2]
		wg.Go(func() {
			r, err := s.Reserve(context.Background(), "brave", rate, burst, time.Minute)
			if err != nil || !r.OK {
				errs <- fmt.Errorf("reservation %d: %+v, %v", i, r, err)
				return
			}
			<-time.After(r.Wait) // the slot's time: what a pacer waits
			resp, err := http.Get(provider.URL)
			if err != nil {
				errs <- err
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	slices.SortFunc(arrivals, func(x, y time.Time) int { return x.Compare(y) })
	for i, at := range arrivals {
		in := 0
		for _, other := range arrivals[i:] {
			if other.Sub(at) < time.Second {
				in++
			}
		}
		if in > int(rate)+burst {
			t.Errorf("%d requests in the second from arrival %d, want at most %d", in, i, int(rate)+burst)
		}
	}
	// 2 at once, then one every 500 ms: the 16th at 7 s.
	if span, want := arrivals[n-1].Sub(arrivals[0]), time.Duration(float64(n-burst)/rate*float64(time.Second)); span < want-100*time.Millisecond {
		t.Errorf("16 requests in %v, want at least %v: not paced", span, want)
	}
}

func TestReserve(t *testing.T) {
	srv := redistest.Start(t)
	s, _, _ := open(t, srv.URL(), Options{})
	ctx := context.Background()
	// rate 1/s, burst 2: two now, the third one second on.
	tests := []struct {
		name    string
		maxWait time.Duration
		ok      bool
		wait    time.Duration // at least, within 100 ms above
	}{
		{"first of the burst", 0, true, 0},
		{"second of the burst", 0, true, 0},
		{"no wait accepted: refused", 0, false, 900 * time.Millisecond},
		{"a refusal took nothing", 0, false, 900 * time.Millisecond},
		{"waits for the next slot", 2 * time.Second, true, 900 * time.Millisecond},
		{"the one after that", 5 * time.Second, true, 1900 * time.Millisecond},
		{"not before the deadline", time.Second, false, 2900 * time.Millisecond},
	}
	for _, tt := range tests {
		r, err := s.Reserve(ctx, "bucket", 1, 2, tt.maxWait)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if r.OK != tt.ok || r.Wait < tt.wait || r.Wait > tt.wait+200*time.Millisecond {
			t.Errorf("%s: %+v, want ok %t, wait about %v", tt.name, r, tt.ok, tt.wait)
		}
	}
	if r, err := s.Reserve(ctx, "another", 1, 2, 0); err != nil || !r.OK || r.Wait != 0 {
		t.Errorf("another bucket: %+v, %v", r, err)
	}
	if r, err := s.Reserve(ctx, "unpaced", 0, 0, 0); err != nil || !r.OK {
		t.Errorf("no rate: %+v, %v", r, err)
	}
}

func TestBoundedMap(t *testing.T) {
	srv := redistest.Start(t)
	s, _, _ := open(t, srv.URL(), Options{Prefix: "dep"})
	ctx := context.Background()
	b := Bounds{TTL: time.Minute, MaxEntries: 3, MaxValue: 10, MaxBytes: 25}
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer raw.Close()
	put := func(name, value string) bool {
		t.Helper()
		ok, err := s.Put(ctx, "m", name, []byte(value), b)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	has := func(name string) bool {
		t.Helper()
		_, ok, err := s.Get(ctx, "m", name, b)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	tests := []struct {
		name    string
		do      func() bool
		want    bool
		present []string
		absent  []string
	}{
		{"a value is kept", func() bool { return put("a", "aaaaaaaa") }, true, []string{"a"}, nil},
		{"a value over MaxValue is not", func() bool { return put("big", "bbbbbbbbbbb") }, false, []string{"a"}, []string{"big"}},
		{"MaxEntries: the oldest goes", func() bool { put("b", "bb"); put("c", "cc"); return put("d", "dd") }, true, []string{"b", "c", "d"}, []string{"a"}},
		{"MaxBytes: the oldest go until it fits", func() bool { return put("e", "eeeeeeeeee") && put("f", "ffffffffff") }, true, []string{"e", "f"}, []string{"b", "c"}},
		{"replacing counts once", func() bool { return put("f", "gggggggggg") }, true, []string{"d", "e", "f"}, nil},
	}
	for _, tt := range tests {
		if got := tt.do(); got != tt.want {
			t.Errorf("%s: %t, want %t", tt.name, got, tt.want)
		}
		for _, n := range tt.present {
			if !has(n) {
				t.Errorf("%s: %s missing", tt.name, n)
			}
		}
		for _, n := range tt.absent {
			if has(n) {
				t.Errorf("%s: %s still there", tt.name, n)
			}
		}
	}
	if v, _, _ := s.Get(ctx, "m", "f", b); string(v) != "gggggggggg" {
		t.Errorf("f = %q", v)
	}
	// Every key is under the prefix and expires by itself.
	keys, err := raw.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "dep:m:") {
			t.Errorf("key %q outside the prefix", k)
		}
		if ttl := raw.PTTL(ctx, k).Val(); ttl <= 0 || ttl > b.TTL {
			t.Errorf("key %q: TTL %v, want 0 < TTL <= %v", k, ttl, b.TTL)
		}
	}
	if total, _ := raw.Get(ctx, "dep:m:bytes").Int(); total != 22 {
		t.Errorf("accounted bytes %d, want 22 (d, e, f)", total)
	}
}

// TestRedisFailsAndComesBack: a killed Redis costs the first command
// its deadline, and every later one nothing (ErrUnavailable at once)
// until the probe finds Redis again; each transition is logged once and
// reported to OnState; the log never holds the URL's password.
func TestRedisFailsAndComesBack(t *testing.T) {
	srv := redistest.Start(t)
	srv.Kill()
	srv.Restart("--requirepass", "s3cret-pw")
	url := strings.Replace(srv.URL(), "redis://", "redis://:s3cret-pw@", 1)
	s, states, log := open(t, url, Options{Timeout: 50 * time.Millisecond, Probe: 20 * time.Millisecond})
	if !<-states {
		t.Fatal("not up at start")
	}
	ctx := context.Background()
	if _, err := s.Reserve(ctx, "x", 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	for i := range 5 {
		start := time.Now()
		_, err := s.Reserve(ctx, "x", 1, 1, 0)
		if took := time.Since(start); !errors.Is(err, ErrUnavailable) || took > 50*time.Millisecond+limits.R1SharedStateCall {
			t.Errorf("call %d on a dead redis: %v after %v", i, err, took)
		}
	}
	if <-states {
		t.Fatal("not down")
	}
	srv.Restart("--requirepass", "s3cret-pw")
	if !<-states {
		t.Fatal("not up again")
	}
	if r, err := s.Reserve(ctx, "x", 1, 1, 0); err != nil || !r.OK {
		t.Errorf("after recovery: %+v, %v", r, err)
	}
	// A hung Redis: the command ends at its deadline.
	srv.Pause()
	start := time.Now()
	if _, err := s.Reserve(ctx, "y", 1, 1, 0); !errors.Is(err, ErrUnavailable) || time.Since(start) > 50*time.Millisecond+limits.R1SharedStateCall {
		t.Errorf("hung redis: %v after %v", err, time.Since(start))
	}
	srv.Resume()
	if <-states {
		t.Fatal("not down while hung")
	}
	if !<-states {
		t.Fatal("not up after resuming")
	}
	out := log.String()
	if n := strings.Count(out, `"state":"down"`); n != 2 {
		t.Errorf("%d down lines, want 2 (one per transition):\n%s", n, out)
	}
	if strings.Contains(out, "s3cret-pw") || strings.Contains(out, srv.Addr()) {
		t.Errorf("the log holds the URL:\n%s", out)
	}
}

func TestPassword(t *testing.T) {
	srv := redistest.Start(t)
	srv.Kill()
	srv.Restart("--requirepass", "from-env")
	tests := []struct {
		name, url, password string
		up                  bool
	}{
		{"none", srv.URL(), "", false},
		{"from password_env", srv.URL(), "from-env", true},
		{"password_env over the URL's", strings.Replace(srv.URL(), "redis://", "redis://:wrong@", 1), "from-env", true},
		{"wrong", srv.URL(), "wrong", false},
	}
	for _, tt := range tests {
		s, states, log := open(t, tt.url, Options{Password: tt.password})
		if up := <-states; up != tt.up || s.Up() != tt.up {
			t.Errorf("%s: up %t, want %t", tt.name, up, tt.up)
		}
		if strings.Contains(log.String(), "from-env") {
			t.Errorf("%s: the password is logged", tt.name)
		}
	}
	if _, err := Open(context.Background(), Options{URL: "http://:secret@host/"}); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("a bad URL: %v", err)
	}
}
