package resolver

import (
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// reply is what a fake server answers to one question.
type reply struct {
	rcode     int      // dns.RcodeSuccess unless set
	answer    []dns.RR // the answer section (over TCP when tc is set)
	tc        bool     // over UDP, answer udpAnswer with the TC bit set
	udpAnswer []dns.RR
	question  string // if set, the reply names this question instead
}

// fakeServer is an in-process DNS server on loopback, UDP and TCP on one
// port, that counts the questions it gets.
type fakeServer struct {
	addr   string
	answer func(q dns.Question, tcp bool) reply

	mu     sync.Mutex
	counts map[string]int // by "name. TYPE", lower-case
	total  int
	tcp    int
}

// startServer starts a fakeServer that answers with answer and stops it
// when the test ends.
func startServer(t *testing.T, answer func(q dns.Question, tcp bool) reply) *fakeServer {
	t.Helper()
	f := &fakeServer{answer: answer, counts: make(map[string]int)}
	var pc net.PacketConn
	var ln net.Listener
	for range 20 {
		var err error
		if pc, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		if ln, err = net.Listen("tcp", pc.LocalAddr().String()); err == nil {
			break
		}
		pc.Close()
		pc = nil
	}
	if pc == nil {
		t.Fatal("no loopback port free for both UDP and TCP")
	}
	f.addr = pc.LocalAddr().String()
	for _, srv := range []*dns.Server{{PacketConn: pc, Handler: f}, {Listener: ln, Handler: f}} {
		started := make(chan struct{})
		failed := make(chan error, 1)
		srv.NotifyStartedFunc = func() { close(started) }
		go func() { failed <- srv.ActivateAndServe() }()
		select {
		case <-started:
		case err := <-failed:
			t.Fatalf("fake server: %v", err)
		}
		t.Cleanup(func() { _ = srv.Shutdown() })
	}
	return f
}

// ServeDNS answers one query.
func (f *fakeServer) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	tcp := w.LocalAddr().Network() == "tcp"
	q := req.Question[0]
	f.mu.Lock()
	f.counts[strings.ToLower(q.Name)+" "+dns.TypeToString[q.Qtype]]++
	f.total++
	if tcp {
		f.tcp++
	}
	f.mu.Unlock()

	rep := f.answer(q, tcp)
	m := new(dns.Msg)
	m.SetRcode(req, rep.rcode)
	m.Answer = rep.answer
	if rep.tc && !tcp {
		m.Truncated = true
		m.Answer = rep.udpAnswer
	}
	if rep.question != "" {
		m.Question[0].Name = rep.question
	}
	_ = w.WriteMsg(m)
}

// queries returns how many times the server was asked for key
// ("name. TYPE"), and in all.
func (f *fakeServer) queries(key string) (n, total int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[key], f.total
}

func (f *fakeServer) tcpQueries() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tcp
}

// zone answers from z, keyed "name. TYPE" or "name. *" for every type. A
// name with no key answers NXDOMAIN; a name with keys for other types
// answers NOERROR with no record.
func zone(z map[string]reply) func(dns.Question, bool) reply {
	return func(q dns.Question, _ bool) reply {
		name := strings.ToLower(q.Name)
		if r, ok := z[name+" "+dns.TypeToString[q.Qtype]]; ok {
			return r
		}
		if r, ok := z[name+" *"]; ok {
			return r
		}
		for k := range z {
			if strings.HasPrefix(k, name+" ") {
				return reply{}
			}
		}
		return reply{rcode: dns.RcodeNameError}
	}
}

// blackhole is a UDP socket that reads queries and never answers.
type blackhole struct {
	addr     string
	received atomic.Int32
}

// silentServer starts a blackhole and returns its address.
func silentServer(t *testing.T) string { return startBlackhole(t).addr }

func startBlackhole(t *testing.T) *blackhole {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &blackhole{addr: pc.LocalAddr().String()}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 2048)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			b.received.Add(1)
		}
	}()
	t.Cleanup(func() {
		pc.Close()
		<-done
	})
	return b
}

// closedPort returns a loopback UDP address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	return addr
}

// rrs parses records in zone-file syntax.
func rrs(t *testing.T, lines ...string) []dns.RR {
	t.Helper()
	out := make([]dns.RR, 0, len(lines))
	for _, l := range lines {
		rr, err := dns.NewRR(l)
		if err != nil {
			t.Fatalf("record %q: %v", l, err)
		}
		out = append(out, rr)
	}
	return out
}

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newResolver returns a Resolver for cfg and servers, failing the test on
// a configuration error.
func newResolver(t *testing.T, cfg Config, servers ...string) *Resolver {
	t.Helper()
	cfg.Servers = servers
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
