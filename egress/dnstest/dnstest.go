// Package dnstest runs an in-process DNS server on loopback for tests: it
// answers from records set in zone-file syntax, follows CNAMEs the way a
// recursive resolver does, and counts the queries it answered.
package dnstest

import (
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/miekg/dns"
)

// Server is a loopback DNS server listening on UDP and TCP at Addr.
type Server struct {
	// Addr is "127.0.0.1:port", the same port for UDP and TCP.
	Addr    string
	mu      sync.Mutex
	records map[string][]dns.RR // by lower-case FQDN
	queries atomic.Int64
}

// Start starts a server and stops it when the test ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{records: map[string][]dns.RR{}}
	var pc net.PacketConn
	var ln net.Listener
	for range 10 {
		var err error
		if pc, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
			tb.Fatal(err)
		}
		if ln, err = net.Listen("tcp", pc.LocalAddr().String()); err == nil {
			break
		}
		pc.Close()
		pc = nil
	}
	if pc == nil {
		tb.Fatal("dnstest: no port free for both UDP and TCP")
	}
	s.Addr = pc.LocalAddr().String()
	for _, srv := range []*dns.Server{
		{PacketConn: pc, Handler: s},
		{Listener: ln, Handler: s},
	} {
		started := make(chan struct{})
		srv.NotifyStartedFunc = func() { close(started) }
		done := make(chan struct{})
		go func() {
			defer close(done)
			srv.ActivateAndServe()
		}()
		<-started
		tb.Cleanup(func() {
			srv.Shutdown()
			<-done
		})
	}
	return s
}

// Set replaces the records of every owner named in rrs, given in
// zone-file syntax ("a.test. 60 IN A 127.0.0.1").
func (s *Server) Set(tb testing.TB, rrs ...string) {
	tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := map[string]bool{}
	for _, text := range rrs {
		rr, err := dns.NewRR(text)
		if err != nil {
			tb.Fatalf("dnstest: %q: %v", text, err)
		}
		owner := strings.ToLower(rr.Header().Name)
		if !fresh[owner] {
			s.records[owner] = nil
			fresh[owner] = true
		}
		s.records[owner] = append(s.records[owner], rr)
	}
}

// Queries reports how many queries the server answered.
func (s *Server) Queries() int64 { return s.queries.Load() }

// ServeDNS implements dns.Handler.
func (s *Server) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	s.queries.Add(1)
	m := new(dns.Msg)
	m.SetReply(req)
	m.RecursionAvailable = true
	if len(req.Question) == 1 {
		s.answer(m, req.Question[0])
	}
	w.WriteMsg(m)
}

func (s *Server) answer(m *dns.Msg, q dns.Question) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := strings.ToLower(q.Name)
	for hops := 0; hops < 16; hops++ {
		rrs, ok := s.records[name]
		if !ok {
			if hops == 0 {
				m.Rcode = dns.RcodeNameError
			}
			return
		}
		next := ""
		for _, rr := range rrs {
			switch rr := rr.(type) {
			case *dns.CNAME:
				m.Answer = append(m.Answer, dns.Copy(rr))
				next = strings.ToLower(rr.Target)
			default:
				if rr.Header().Rrtype == q.Qtype {
					m.Answer = append(m.Answer, dns.Copy(rr))
				}
			}
		}
		if next == "" {
			return
		}
		name = next
	}
}
