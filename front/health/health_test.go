package health

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

const (
	eng       = "wikipedia"
	closed    = response.StateClosed
	open      = response.StateOpen
	halfOpen  = response.StateHalfOpen
	success   = response.EngineClass("")
	serverErr = response.ClassServerError
)

// clock is a fake clock that moves only when told.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// harness is a Tracker on a fake clock; steps drive it.
type harness struct {
	t     *testing.T
	clock *clock
	tr    *Tracker
}

func newHarness(t *testing.T, opts Options) *harness {
	c := newClock()
	opts.Now = c.Now
	return &harness{t: t, clock: c, tr: New(opts)}
}

// step is one action on the harness and what it should give.
type step struct {
	what string
	run  func(h *harness) error
}

func (h *harness) play(steps []step) {
	h.t.Helper()
	for i, s := range steps {
		if err := s.run(h); err != nil {
			h.t.Fatalf("step %d (%s): %v", i+1, s.what, err)
		}
	}
}

// admit asks Admit and wants (ok, probe).
func admit(wantOK, wantProbe bool) step {
	return step{fmt.Sprintf("admit → %v, %v", wantOK, wantProbe), func(h *harness) error {
		if gotOK, gotProbe := h.tr.Admit(eng); gotOK != wantOK || gotProbe != wantProbe {
			return fmt.Errorf("Admit: got %v, %v, want %v, %v", gotOK, gotProbe, wantOK, wantProbe)
		}
		return nil
	}}
}

var (
	admitted = admit(true, false)
	probes   = admit(true, true)
	refused  = admit(false, false)
)

// end reports a request's end through Done.
func end(probe bool, class response.EngineClass, retryAfter time.Duration) step {
	return step{fmt.Sprintf("done probe=%v class=%q retry-after=%v", probe, class, retryAfter), func(h *harness) error {
		h.tr.Done(eng, probe, class, retryAfter, 0)
		return nil
	}}
}

func fail(class response.EngineClass) step { return end(false, class, 0) }
func succeed() step                        { return end(false, success, 0) }
func probeEnds(class response.EngineClass, retryAfter time.Duration) step {
	return end(true, class, retryAfter)
}

// request is an admitted request that ends with class.
func request(class response.EngineClass) []step { return []step{admitted, fail(class)} }

func abandon(probe bool) step {
	return step{fmt.Sprintf("abandon probe=%v", probe), func(h *harness) error {
		h.tr.Abandon(eng, probe)
		return nil
	}}
}

func wait(d time.Duration) step {
	return step{fmt.Sprintf("wait %v", d), func(h *harness) error {
		h.clock.advance(d)
		return nil
	}}
}

// is wants State to read want.
func is(want response.EngineState) step {
	return step{fmt.Sprintf("state is %s", want), func(h *harness) error {
		if got, _, _ := h.tr.State(eng); got != want {
			return fmt.Errorf("State: got %s, want %s", got, want)
		}
		return nil
	}}
}

// cooldownIs wants the open breaker to refuse until d has passed and then
// admit one probe (the clock ends at the probe).
func cooldownIs(d time.Duration) []step {
	return []step{
		is(open), wait(d - time.Millisecond), refused, is(open),
		wait(time.Millisecond), is(halfOpen), probes,
	}
}

// opened opens a closed breaker with three failures.
func opened() []step {
	return join(request(serverErr), request(serverErr), request(serverErr), []step{is(open)})
}

func join(parts ...[]step) []step {
	var out []step
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestBreaker(t *testing.T) {
	tests := []struct {
		name  string
		opts  Options
		steps []step
	}{
		{"an engine starts closed and admits every request", Options{},
			[]step{is(closed), admitted, admitted, admitted, is(closed)}},
		{"two consecutive failures leave it closed", Options{},
			join(request(serverErr), request(response.ClassTimeout), []step{is(closed), admitted})},
		{"three consecutive failures open it", Options{},
			join(request(serverErr), request(response.ClassTimeout), []step{is(closed)}, request(response.ClassNetwork), []step{is(open), refused})},
		{"a success between failures resets the count", Options{},
			join(request(serverErr), request(serverErr), []step{admitted, succeed()}, request(serverErr), request(serverErr), []step{is(closed)}, request(serverErr), []step{is(open)})},
		{"rate_limited opens it at once", Options{},
			join(request(response.ClassRateLimited), []step{is(open), refused})},
		{"blocked opens it at once", Options{},
			join(request(response.ClassBlocked), []step{is(open), refused})},
		{"rate_limited after a failure opens it", Options{},
			join(request(serverErr), request(response.ClassRateLimited), []step{is(open)})},
		{"the first cooldown is 30 s: refused at 29.999 s, a probe at 30 s", Options{},
			join(opened(), cooldownIs(30*time.Second))},
		{"the cooldown runs from the failure that opened it", Options{},
			join(request(serverErr), request(serverErr), []step{wait(time.Hour)}, request(serverErr), cooldownIs(30*time.Second))},
		{"a second caller is refused while the probe is out", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, is(halfOpen), refused, refused, is(halfOpen)})},
		{"a probe that succeeds closes the breaker", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, probeEnds(success, 0), is(closed), admitted, admitted})},
		{"a probe that succeeds resets the cooldown to 30 s", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, probeEnds(serverErr, 0)}, cooldownIs(time.Minute),
				[]step{probeEnds(success, 0), is(closed)}, opened(), cooldownIs(30*time.Second))},
		{"a probe that succeeds starts a fresh failure count", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, probeEnds(success, 0)}, request(serverErr), request(serverErr), []step{is(closed)})},
		{"a failed probe re-opens with 60 s, 120 s and so on, capped at 10 min", Options{},
			join(opened(), cooldownIs(30*time.Second),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(time.Minute),
				[]step{probeEnds(response.ClassTimeout, 0)}, cooldownIs(2*time.Minute),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(4*time.Minute),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(8*time.Minute),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(10*time.Minute),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(10*time.Minute))},
		{"Retry-After of 90 s is honored", Options{},
			join([]step{admitted, end(false, response.ClassRateLimited, 90*time.Second)}, cooldownIs(90*time.Second))},
		{"Retry-After is capped at 3,600 s", Options{},
			join([]step{admitted, end(false, response.ClassRateLimited, 5*time.Hour)}, cooldownIs(3600*time.Second))},
		{"a Retry-After shorter than the cooldown does not shorten it", Options{},
			join([]step{admitted, end(false, response.ClassBlocked, 5*time.Second)}, cooldownIs(30*time.Second))},
		{"a Retry-After on the failure that opens after three counts", Options{},
			join(request(serverErr), request(serverErr), []step{admitted, end(false, serverErr, 2*time.Minute)}, cooldownIs(2*time.Minute))},
		{"a Retry-After on a failed probe is honored", Options{},
			join(opened(), cooldownIs(30*time.Second), []step{probeEnds(response.ClassRateLimited, 20*time.Minute)}, cooldownIs(20*time.Minute))},
		{"a Retry-After does not move the backoff step", Options{},
			join(opened(), cooldownIs(30*time.Second), []step{probeEnds(response.ClassRateLimited, time.Hour)}, cooldownIs(time.Hour),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(2*time.Minute))},
		{"Abandon lets the next caller probe", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, refused, abandon(true), is(halfOpen), probes, refused, probeEnds(success, 0), is(closed)})},
		{"Abandon of a request that is not the probe does nothing", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, abandon(false), refused})},
		{"Abandon of a closed engine does nothing", Options{},
			[]step{admitted, abandon(true), is(closed), admitted}},
		{"a request admitted while closed that fails after the breaker opened does not move it", Options{},
			join([]step{admitted, admitted}, opened(), []step{fail(serverErr), fail(response.ClassRateLimited), is(open)}, cooldownIs(30*time.Second))},
		{"a request admitted while closed that succeeds after the breaker opened does not close it", Options{},
			join([]step{admitted}, opened(), []step{succeed(), is(open), wait(30 * time.Second), probes, succeed(), is(halfOpen), refused})},
		{"a late probe result after Abandon does not move the breaker", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, abandon(true), probeEnds(success, 0), is(halfOpen), probes})},
		{"a probe out for the whole cooldown is presumed lost and the next caller probes", Options{},
			join(opened(), []step{wait(30 * time.Second), probes, wait(30*time.Second - time.Millisecond), refused, wait(time.Millisecond), probes, probeEnds(success, 0), is(closed)})},
		{"an open breaker past its cooldown reads half_open before any Admit", Options{},
			join(opened(), []step{wait(time.Hour), is(halfOpen), is(halfOpen), probes})},
		{"Failures, Cooldown and MaxCooldown are honored", Options{Failures: 5, Cooldown: time.Second, MaxCooldown: 3 * time.Second},
			join(request(serverErr), request(serverErr), request(serverErr), request(serverErr), []step{is(closed)}, request(serverErr),
				cooldownIs(time.Second), []step{probeEnds(serverErr, 0)}, cooldownIs(2*time.Second),
				[]step{probeEnds(serverErr, 0)}, cooldownIs(3*time.Second))},
		{"MaxRetryAfter is honored", Options{MaxRetryAfter: time.Minute},
			join([]step{admitted, end(false, response.ClassRateLimited, time.Hour)}, cooldownIs(time.Minute))},
		{"a MaxCooldown below Cooldown keeps the cooldown fixed", Options{Cooldown: time.Minute, MaxCooldown: time.Second},
			join(opened(), cooldownIs(time.Minute), []step{probeEnds(serverErr, 0)}, cooldownIs(time.Minute))},
		{"negative options take the defaults", Options{Failures: -1, Cooldown: -1, MaxCooldown: -1, MaxRetryAfter: -1},
			join(opened(), cooldownIs(30*time.Second), []step{probeEnds(response.ClassRateLimited, 2*time.Hour)}, cooldownIs(time.Hour))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newHarness(t, tt.opts).play(tt.steps)
		})
	}
}

func TestEveryFailureClassCounts(t *testing.T) {
	for _, class := range response.EngineClasses() {
		t.Run(string(class), func(t *testing.T) {
			h := newHarness(t, Options{})
			want := 3
			if opensAtOnce(class) {
				want = 1
			}
			for i := 1; i <= want; i++ {
				if got, _, _ := h.tr.State(eng); got != closed {
					t.Fatalf("after %d failures: got %s, want closed", i-1, got)
				}
				h.tr.Admit(eng)
				h.tr.Done(eng, false, class, 0, time.Millisecond)
			}
			if got, _, _ := h.tr.State(eng); got != open {
				t.Errorf("after %d failures: got %s, want open", want, got)
			}
		})
	}
}

// transitions records what OnTransition hears.
type transitions struct {
	mu  sync.Mutex
	got []string
}

func (r *transitions) on(engine string, from, to response.EngineState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, fmt.Sprintf("%s:%s→%s", engine, from, to))
}

func (r *transitions) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func TestOnTransition(t *testing.T) {
	tr := func(from, to response.EngineState) string { return fmt.Sprintf("%s:%s→%s", eng, from, to) }
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"nothing moves while closed",
			join(request(serverErr), []step{admitted, succeed()}), nil},
		{"closed → open → half_open → closed, in order",
			join(opened(), []step{wait(30 * time.Second), is(halfOpen), probes, refused, probeEnds(success, 0)}),
			[]string{tr(closed, open), tr(open, halfOpen), tr(halfOpen, closed)}},
		{"a failed probe reports half_open → open",
			join(opened(), []step{wait(30 * time.Second), probes, probeEnds(serverErr, 0), wait(time.Minute), probes}),
			[]string{tr(closed, open), tr(open, halfOpen), tr(halfOpen, open), tr(open, halfOpen)}},
		{"Abandon and a lost probe report nothing",
			join(opened(), []step{wait(30 * time.Second), probes, abandon(true), probes, wait(time.Hour), probes}),
			[]string{tr(closed, open), tr(open, halfOpen)}},
		{"a stale Done reports nothing",
			join([]step{admitted}, opened(), []step{fail(response.ClassRateLimited), succeed()}),
			[]string{tr(closed, open)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec transitions
			newHarness(t, Options{OnTransition: rec.on}).play(tt.steps)
			if got := rec.list(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOnTransitionMayCallTheTracker: a callback that reads the state and
// causes a change of its own neither deadlocks nor reorders the reports.
func TestOnTransitionMayCallTheTracker(t *testing.T) {
	var h *harness
	var got []string
	h = newHarness(t, Options{OnTransition: func(engine string, from, to response.EngineState) {
		state, _, _ := h.tr.State(engine)
		got = append(got, fmt.Sprintf("%s:%s→%s (reads %s)", engine, from, to, state))
		if to == open && engine == eng {
			h.tr.Admit("brave")
			h.tr.Done("brave", false, response.ClassBlocked, 0, 0)
		}
	}})
	h.play(opened())
	want := []string{eng + ":closed→open (reads open)", "brave:closed→open (reads open)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if state, _, _ := h.tr.State("brave"); state != open {
		t.Errorf("brave: got %s, want open", state)
	}
}

func TestOnTransitionPanicDoesNotStopLaterReports(t *testing.T) {
	var calls int
	h := newHarness(t, Options{OnTransition: func(string, response.EngineState, response.EngineState) {
		calls++
		if calls == 1 {
			panic("callback")
		}
	}})
	func() {
		defer func() { _ = recover() }()
		h.play(opened())
	}()
	h.play(join([]step{wait(30 * time.Second)}, []step{probes}))
	if calls != 2 {
		t.Errorf("OnTransition calls: got %d, want 2", calls)
	}
}

func TestExactlyOneProbe(t *testing.T) {
	const callers = 50
	h := newHarness(t, Options{})
	h.play(join(opened(), []step{wait(30 * time.Second)}))
	var admittedN, probesN atomic.Int32
	var start, wg sync.WaitGroup
	start.Add(1)
	for range callers {
		wg.Go(func() {
			start.Wait()
			ok, probe := h.tr.Admit(eng)
			if ok {
				admittedN.Add(1)
			}
			if probe {
				probesN.Add(1)
			}
		})
	}
	start.Done()
	wg.Wait()
	if a, p := admittedN.Load(), probesN.Load(); a != 1 || p != 1 {
		t.Errorf("%d concurrent Admit calls: %d admitted, %d probes; want 1 and 1", callers, a, p)
	}
}

func TestLatency(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	type done struct {
		class   response.EngineClass
		latency time.Duration
	}
	oks := func(lat ...int) []done {
		var out []done
		for _, l := range lat {
			out = append(out, done{success, ms(l)})
		}
		return out
	}
	seq := func(from, to int) []int {
		var out []int
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
		return out
	}
	tests := []struct {
		name   string
		dones  []done
		want   time.Duration
		wantOK bool
	}{
		{"no request: no latency", nil, 0, false},
		{"one request", oks(180), ms(180), true},
		{"an odd count: the middle value", oks(300, 100, 200), ms(200), true},
		{"an even count: the mean of the two middle values", oks(400, 100, 300, 200), ms(250), true},
		{"an even count keeps sub-millisecond precision", []done{{success, ms(1)}, {success, ms(2)}}, 1500 * time.Microsecond, true},
		{"a full window of 20", oks(seq(1, 20)...), 10500 * time.Microsecond, true},
		{"the window slides: the oldest of 25 are dropped", oks(seq(1, 25)...), 15500 * time.Microsecond, true},
		{"the window slides past a spike", append(oks(100000), oks(seq(1, 20)...)...), 10500 * time.Microsecond, true},
		{"21 values keep the last 20, an even count", oks(seq(0, 20)...), 10500 * time.Microsecond, true},
		{"19 values, an odd count", oks(seq(1, 19)...), ms(10), true},
		{"a provider's error answer is a completed request",
			[]done{{response.ClassServerError, ms(10)}, {response.ClassRateLimited, ms(20)}, {response.ClassBadResponse, ms(30)}}, ms(20), true},
		{"timeouts, network failures and egress refusals are not completed",
			[]done{{success, ms(10)}, {response.ClassTimeout, ms(2000)}, {response.ClassNetwork, ms(5)}, {response.ClassDenied, ms(1)}}, ms(10), true},
		{"only timeouts: no latency", []done{{response.ClassTimeout, ms(2000)}}, 0, false},
		{"a negative latency is ignored", []done{{success, ms(10)}, {success, -ms(5)}}, ms(10), true},
		{"a zero latency counts", []done{{success, 0}}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(Options{Now: newClock().Now, Failures: 1000})
			for _, d := range tt.dones {
				tr.Admit(eng)
				tr.Done(eng, false, d.class, 0, d.latency)
			}
			_, got, gotOK := tr.State(eng)
			if got != tt.want || gotOK != tt.wantOK {
				t.Errorf("median: got %v, %v, want %v, %v", got, gotOK, tt.want, tt.wantOK)
			}
		})
	}
}

func TestLatencyIsRecordedWhateverTheState(t *testing.T) {
	h := newHarness(t, Options{})
	h.tr.Admit(eng)
	timeout := request(response.ClassTimeout) // not completed: no latency
	h.play(join(timeout, timeout, timeout, []step{is(open)}))
	h.tr.Done(eng, false, success, 0, 40*time.Millisecond) // late, after the breaker opened
	h.play([]step{wait(30 * time.Second), probes})
	h.tr.Done(eng, true, success, 0, 60*time.Millisecond) // the probe
	_, median, got := h.tr.State(eng)
	if want := 50 * time.Millisecond; !got || median != want {
		t.Errorf("median: got %v, %v, want %v, true", median, got, want)
	}
}

func TestUnknownEngine(t *testing.T) {
	tr := New(Options{})
	state, median, ok := tr.State("nowhere")
	if state != closed || median != 0 || ok {
		t.Errorf("State: got %s, %v, %v, want closed, 0, false", state, median, ok)
	}
	tr.Abandon("nowhere", true)
	if len(tr.engines) != 0 {
		t.Errorf("State and Abandon created %d engines, want 0", len(tr.engines))
	}
	if ok, probe := tr.Admit("nowhere"); !ok || probe {
		t.Errorf("Admit: got %v, %v, want true, false", ok, probe)
	}
}

func TestEnginesAreIndependent(t *testing.T) {
	tr := New(Options{Now: newClock().Now})
	tr.Admit("brave")
	tr.Done("brave", false, response.ClassBlocked, 0, time.Millisecond)
	if s, _, _ := tr.State("brave"); s != open {
		t.Errorf("brave: got %s, want open", s)
	}
	if s, _, ok := tr.State(eng); s != closed || ok {
		t.Errorf("%s: got %s, latency %v, want closed, none", eng, s, ok)
	}
	if ok, _ := tr.Admit(eng); !ok {
		t.Errorf("%s: refused, want admitted", eng)
	}
}

func TestDefaultClock(t *testing.T) {
	tr := New(Options{})
	tr.Admit(eng)
	tr.Done(eng, false, response.ClassRateLimited, 0, 0)
	if s, _, _ := tr.State(eng); s != open {
		t.Errorf("got %s, want open for 30 s of real time", s)
	}
}

// TestConcurrentUse drives every method from many goroutines, for -race,
// and checks the invariants that hold whatever the interleaving.
func TestConcurrentUse(t *testing.T) {
	c := newClock()
	var rec transitions
	tr := New(Options{Now: c.Now, Cooldown: time.Second, OnTransition: rec.on})
	engines := []string{"wikipedia", "brave", "searx"}
	classes := append([]response.EngineClass{success, success, success}, response.EngineClasses()...)
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 300 {
				e := engines[(g+i)%len(engines)]
				switch i % 7 {
				case 0:
					c.advance(50 * time.Millisecond)
				case 1:
					state, _, _ := tr.State(e)
					if state != closed && state != open && state != halfOpen {
						t.Errorf("State: %q", state)
					}
				}
				okAdmit, probe := tr.Admit(e)
				if !okAdmit {
					continue
				}
				if probe && i%11 == 0 {
					tr.Abandon(e, probe)
					continue
				}
				tr.Done(e, probe, classes[(g*7+i)%len(classes)], time.Duration(i%3)*time.Second, time.Duration(i)*time.Millisecond)
			}
		})
	}
	wg.Wait()
	// Each engine's reports chain: every one starts where the last ended.
	last := map[string]response.EngineState{}
	for _, r := range rec.list() {
		var e, from, to string
		if _, err := fmt.Sscanf(stripArrow(r), "%s %s %s", &e, &from, &to); err != nil {
			t.Fatalf("report %q: %v", r, err)
		}
		if prev, seen := last[e]; seen && string(prev) != from || !seen && from != string(closed) {
			t.Errorf("%s: report %s→%s after %s", e, from, to, prev)
		}
		last[e] = response.EngineState(to)
	}
	for _, e := range engines {
		if _, _, ok := tr.State(e); !ok {
			t.Errorf("%s: no latency after many completed requests", e)
		}
	}
}

// stripArrow turns "engine:from→to" into "engine from to".
func stripArrow(r string) string {
	out := []rune{}
	for _, c := range r {
		switch c {
		case ':', '→':
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

func TestWindowSize(t *testing.T) {
	var w window
	if len(w.vals) != limits.S11LatencyWindow {
		t.Errorf("window holds %d, want LIM-S11 = %d", len(w.vals), limits.S11LatencyWindow)
	}
}

// TestCooldownLeft follows an engine's breaker: nothing left while
// closed, the provider's Retry-After once it opens on a rate limit,
// less as the clock moves, nothing once half_open; an unknown engine has
// none.
func TestCooldownLeft(t *testing.T) {
	h := newHarness(t, Options{})
	tests := []struct {
		what string
		act  func()
		want time.Duration
	}{
		{"unknown", func() {}, 0},
		{"closed after a success", func() { h.tr.Admit(eng); h.tr.Done(eng, false, success, 0, time.Millisecond) }, 0},
		{"opened by a rate limit with Retry-After 90 s", func() { h.tr.Admit(eng); h.tr.Done(eng, false, response.ClassRateLimited, 90*time.Second, 0) }, 90 * time.Second},
		{"30 s later", func() { h.clock.advance(30 * time.Second) }, 60 * time.Second},
		{"past the cooldown: half_open", func() { h.clock.advance(time.Minute) }, 0},
	}
	for _, tt := range tests {
		tt.act()
		if got := h.tr.CooldownLeft(eng); got != tt.want {
			t.Errorf("%s: CooldownLeft = %v, want %v", tt.what, got, tt.want)
		}
	}
}
