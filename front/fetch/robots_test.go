package fetch

import (
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/policy"
)

// TestRobotsTxtThatCannotBeRead reproduces issue 15's finding: a page
// whose robots.txt was never read (the name does not resolve, the
// connection fails) was answered denied, robots_txt, so a model gave up on
// a page it could read later. It is now unavailable, network, saying
// robots.txt could not be fetched; a robots.txt that answered 5xx or 429
// is still denied, robots_txt, saying which status.
func TestRobotsTxtThatCannotBeRead(t *testing.T) {
	tlsAddr := notTLS(t)
	for _, tc := range []struct {
		name, path string           // path on the case's site, or a whole URL
		robots     http.HandlerFunc // robots.txt on the case's site
		kind       response.ErrorKind
		reason     response.Reason
		message    string // a part of the message
	}{
		{"a name that does not resolve", "http://no-such-name.test/page", nil,
			response.KindUnavailable, response.ReasonNetwork, "robots.txt could not be fetched"},
		{"a failing TLS handshake", "https://" + tlsAddr + "/page", nil,
			response.KindUnavailable, response.ReasonNetwork, "robots.txt could not be fetched"},
		{"robots.txt answering 503", "/page", status(http.StatusServiceUnavailable),
			response.KindDenied, response.ReasonRobotsTxt, "robots.txt answered HTTP 503"},
		{"robots.txt answering 429", "/page", status(http.StatusTooManyRequests),
			response.KindDenied, response.ReasonRobotsTxt, "robots.txt answered HTTP 429"},
		{"robots.txt answering 500", "/page", status(http.StatusInternalServerError),
			response.KindDenied, response.ReasonRobotsTxt, "robots.txt answered HTTP 500"},
		{"robots.txt disallowing the page", "/page", serve("text/plain", "User-agent: *\nDisallow: /page\n"),
			response.KindDenied, response.ReasonRobotsTxt, "robots.txt disallows this URL"},
		// The egress refuses 127.0.0.1:1 (no allow rule names it), so the
		// robots.txt the page's site points to cannot be read.
		{"robots.txt redirecting to a destination the egress refuses", "/page", redirectTo("http://127.0.0.1:1/robots.txt"),
			response.KindDenied, response.ReasonEgress, "robots.txt redirects to a destination the egress policy refuses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t)
			s.mux.HandleFunc("/page", serve("text/plain", "the page"))
			if tc.robots != nil {
				s.mux.HandleFunc("/robots.txt", tc.robots)
			}
			p := setup(t, []*site{s}, func(o *Options) {
				rules, err := policy.ParseRules([]string{s.hostPort(), tlsAddr})
				if err != nil {
					t.Fatal(err)
				}
				o.Config.Egress.Allow = rules
			})
			url := tc.path
			if strings.HasPrefix(url, "/") {
				url = s.url(url)
			}
			e := mustFail(t, p, Request{URL: url}, tc.kind, tc.reason)
			if !strings.Contains(e.Body.Message, tc.message) {
				t.Errorf("message %q, want it to say %q", e.Body.Message, tc.message)
			}
		})
	}
}

// TestARobotsTxtNetworkFailureIsNotHeld: robots.txt that could not be
// fetched is asked again at the next call, so a site back on the network
// is read at once (a network failure is not cached as a disallow).
func TestARobotsTxtNetworkFailureIsNotHeld(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: the connection is refused
	p := setup(t, nil, func(o *Options) {
		rules, err := policy.ParseRules([]string{addr})
		if err != nil {
			t.Fatal(err)
		}
		o.Config.Egress.Allow = rules
	})
	url := "http://" + addr + "/page"
	e := mustFail(t, p, Request{URL: url}, response.KindUnavailable, response.ReasonNetwork)
	if !strings.Contains(e.Body.Message, "robots.txt could not be fetched") {
		t.Errorf("message %q", e.Body.Message)
	}

	if ln, err = net.Listen("tcp", addr); err != nil {
		t.Fatalf("listening again on %s: %v", addr, err)
	}
	back := httptest.NewUnstartedServer(serve("text/plain", "back online"))
	back.Listener.Close()
	back.Listener = ln
	back.Start()
	t.Cleanup(back.Close)
	if out := mustOK(t, p, Request{URL: url}); out.Content != "back online" {
		t.Errorf("content %q", out.Content)
	}
}

// TestAnEgressRefusalOfRobotsTxtIsThePagesOwn: when the egress refuses the
// page's destination by a policy the front did not judge (a deny rule in
// the egress's own configuration), robots.txt, asked first, meets the
// refusal; the caller sees exactly the page's own answer, denied, egress,
// not robots_txt.
func TestAnEgressRefusalOfRobotsTxtIsThePagesOwn(t *testing.T) {
	s := newSite(t)
	s.mux.HandleFunc("/page", serve("text/plain", "the page"))
	deny, err := policy.ParseRules([]string{s.hostPort()})
	if err != nil {
		t.Fatal(err)
	}
	answers := map[bool]*response.Error{}
	for _, robotsOn := range []bool{true, false} {
		p := setup(t, []*site{s}, func(o *Options) {
			o.Config.Fetch.RobotsTxt = robotsOn
			o.Egress = testEgress(t, true, o.Config.Egress.Allow, deny)
		})
		answers[robotsOn] = mustFail(t, p, Request{URL: s.url("/page")}, response.KindDenied, response.ReasonEgress)
	}
	if !reflect.DeepEqual(answers[true], answers[false]) {
		t.Errorf("with robots.txt %+v, without %+v: want the same answer", answers[true].Body, answers[false].Body)
	}
	if n := s.requests.Load(); n != 0 {
		t.Errorf("the site was asked %d times", n)
	}
}

// status answers every request with code.
func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) }
}

// redirectTo answers every request with a 301 to location.
func redirectTo(location string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, location, http.StatusMovedPermanently)
	}
}
