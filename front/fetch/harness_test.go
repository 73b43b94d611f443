package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/egresstest"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/policy"
)

// site is a loopback web site that counts the requests reaching it.
type site struct {
	srv      *httptest.Server
	mux      *http.ServeMux
	requests atomic.Int64
}

func newSite(t testing.TB) *site {
	t.Helper()
	s := &site{mux: http.NewServeMux()}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// hostPort is the site's "127.0.0.1:port", as an allow rule names it.
func (s *site) hostPort() string {
	u, _ := url.Parse(s.srv.URL)
	return u.Host
}

func (s *site) url(path string) string { return s.srv.URL + path }

// testEgress starts a real egress in this process with the agent profile
// as configured: plain http allowed and allow rules for the loopback
// sites (so the agent profile reaches them).
func testEgress(t testing.TB, allowHTTP bool, allow, deny policy.Rules) outbound.Egress {
	t.Helper()
	return outbound.Egress{Socket: egresstest.Start(t, policy.Config{AllowHTTP: allowHTTP, Allow: allow, Deny: deny})}
}

// setup configures a pipeline: defaults, http allowed, the sites allowed;
// tweak may change the configuration and options before New. The egress
// judges by the configuration as tweaked, unless tweak set one of its own.
func setup(t testing.TB, sites []*site, tweak func(*Options)) *Pipeline {
	t.Helper()
	c := config.Default(nil)
	c.Egress.AllowHTTP = true
	var raw []string
	for _, s := range sites {
		raw = append(raw, s.hostPort())
	}
	rules, err := policy.ParseRules(raw)
	if err != nil {
		t.Fatal(err)
	}
	c.Egress.Allow = rules
	o := Options{
		Config:    c,
		UserAgent: "rypsok/test",
		Log:       zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel),
	}
	if tweak != nil {
		tweak(&o)
	}
	if o.Egress.Socket == "" && o.Egress.Ready == nil {
		o.Egress = testEgress(t, o.Config.Egress.AllowHTTP, o.Config.Egress.Allow, o.Config.Egress.Deny)
	}
	p := New(o)
	t.Cleanup(p.Close)
	return p
}

func mustOK(t *testing.T, p *Pipeline, req Request) response.Fetch {
	t.Helper()
	out, e := p.Fetch(context.Background(), req)
	if e != nil {
		t.Fatalf("Fetch(%q): %v %+v", req.URL, e, e.Body.Detail)
	}
	return out
}

func mustFail(t *testing.T, p *Pipeline, req Request, kind response.ErrorKind, reason response.Reason) *response.Error {
	t.Helper()
	out, e := p.Fetch(context.Background(), req)
	if e == nil {
		t.Fatalf("Fetch(%q) = %+v, want %s %s", req.URL, out, kind, reason)
	}
	if e.Body.Kind != kind || e.Body.Detail.Reason != reason {
		t.Fatalf("Fetch(%q) = %s %s %+v, want %s %s", req.URL, e.Body.Kind, e.Body.Detail.Reason, e.Body.Detail, kind, reason)
	}
	return e
}

func serve(ct, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		w.Write([]byte(body))
	}
}
