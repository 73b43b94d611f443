// Package enginetest is test support for engine drivers: a loopback fake
// engine serving fixtures and recording requests. It also holds what the
// driver packages' tests share beyond the fake: fixture loading, driver
// construction at an endpoint prefix, a plain client, the checks of a
// classified failure, the test shapes every driver repeats (the query
// sent, the endpoint's path, the count kept, a status table, what an
// error's message keeps, the requests refused unsent) and the seeds and
// checks of a parser's fuzz test.
package enginetest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// Prefix is the path of the fakes' endpoint: a driver must put its
// provider's path under it.
const Prefix = "/prefix"

// UserAgent is the User-Agent the tests configure.
const UserAgent = "rypsok/test (+https://github.com/rypsok/rypsok; ops@example.org)"

// Canned is one answer of a fake provider.
type Canned struct {
	Status int
	Header http.Header
	Body   []byte
}

// Fixture returns the bytes of testdata/name.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Recorder keeps the requests a fake received. Its zero value is ready.
type Recorder struct {
	mu  sync.Mutex
	got []*http.Request
}

func (r *Recorder) add(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, req)
}

// Requests returns the requests received so far.
func (r *Recorder) Requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.got...)
}

// One returns the one request received; the test fails unless there was
// exactly one.
func (r *Recorder) One(t testing.TB) *http.Request {
	t.Helper()
	got := r.Requests()
	if len(got) != 1 {
		t.Fatalf("%d requests, want 1", len(got))
	}
	return got[0]
}

// Transport returns an http.RoundTripper that answers every request with
// c and its complete trailer, recording the request in r: a client that
// never leaves the process.
func (r *Recorder) Transport(c Canned) http.RoundTripper {
	return roundTrip{c: c, rec: r}
}

type roundTrip struct {
	c   Canned
	rec *Recorder
}

func (rt roundTrip) RoundTrip(req *http.Request) (*http.Response, error) {
	rt.rec.add(req)
	h := rt.c.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{
		StatusCode: rt.c.Status,
		Header:     h,
		Body:       io.NopCloser(bytes.NewReader(rt.c.Body)),
		Trailer:    http.Header{contract.TrailerEnd: {string(contract.EndComplete)}},
		Request:    req,
	}, nil
}

// Fake starts a loopback provider serving c at Prefix+path, the way the
// egress forwards an answer: its headers, status and body, then the
// trailer saying the body is complete. Any other path is a 404 with an
// empty body. Every request is recorded.
func Fake(t *testing.T, path string, c Canned) (*httptest.Server, *Recorder) {
	t.Helper()
	rec := &Recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(r.Clone(context.Background()))
		if r.URL.Path != Prefix+path {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Trailer", contract.TrailerEnd)
		for k, vs := range c.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(c.Status)
		w.Write(c.Body)
		w.Header().Set(contract.TrailerEnd, string(contract.EndComplete))
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// Blocking starts a loopback provider that answers nothing until release
// is closed or the request ends, and returns its URL.
func Blocking(t *testing.T, release <-chan struct{}) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// FetchFailures checks that what engine.Fetch classifies reaches a
// driver's caller unchanged: an egress refusal (for the engine) is
// denied, a deadline passed is a timeout. path is the provider's path
// the driver asks; build makes the driver for a provider at url.
func FetchFailures[D engine.Driver](t *testing.T, path string, build func(t *testing.T, url string) D) {
	FetchFailuresFor(t, contract.ReasonEngine, path, build)
}

// FetchFailuresFor is FetchFailures with the egress refusing for reason.
func FetchFailuresFor[D engine.Driver](t *testing.T, reason contract.Reason, path string, build func(t *testing.T, url string) D) {
	t.Run("an egress refusal is denied", func(t *testing.T) {
		h := http.Header{contract.HeaderRefusal: {string(reason)}}
		srv, _ := Fake(t, path, Canned{Status: contract.Status(reason), Header: h, Body: []byte("rypsok-egress: " + string(reason) + "\n")})
		res, err := SearchOnce(t, build(t, srv.URL))
		AssertClass(t, res, err, response.ClassDenied, 0)
	})
	t.Run("a deadline passed is a timeout", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		d := build(t, Blocking(t, release))
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		res, err := d.Search(ctx, Client(), engine.Request{Query: "q", Count: 10})
		AssertClass(t, res, err, response.ClassTimeout, 0)
	})
}

// NewDriver builds a driver with newDriver from cfg, its Endpoint set to
// url+Prefix.
func NewDriver(t testing.TB, newDriver engine.Factory, url string, cfg engine.Config) engine.Driver {
	t.Helper()
	cfg.Endpoint = url + Prefix
	d, err := newDriver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// NewCase is one case of TestNew: a configuration and the error New
// must return for it, nil when it builds.
type NewCase struct {
	Name string
	Cfg  engine.Config
	Want error
}

// TestNew runs each case as a subtest: newDriver builds a driver when
// Want is nil, and otherwise returns an error that is Want.
func TestNew(t *testing.T, newDriver engine.Factory, cases []NewCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			d, err := newDriver(tt.Cfg)
			if tt.Want == nil {
				if err != nil || d == nil {
					t.Fatalf("New = %v, %v; want a driver", d, err)
				}
				return
			}
			if !errors.Is(err, tt.Want) {
				t.Fatalf("New error = %v, want %v", err, tt.Want)
			}
		})
	}
}

// EndpointCases are the cases of TestNew every driver shares: base, a
// configuration that builds, with an operator's endpoint (an http URL with
// a path builds; a relative one, another scheme, a query, user
// information or a fragment is refused with engine.ErrEndpoint).
func EndpointCases(base engine.Config) []NewCase {
	with := func(endpoint string) engine.Config {
		c := base
		c.Endpoint = endpoint
		return c
	}
	return []NewCase{
		{Name: "an http endpoint with a path builds", Cfg: with("http://127.0.0.1:8080/provider")},
		{Name: "a relative endpoint is refused", Cfg: with("/provider"), Want: engine.ErrEndpoint},
		{Name: "an ftp endpoint is refused", Cfg: with("ftp://127.0.0.1/"), Want: engine.ErrEndpoint},
		{Name: "an endpoint with a query is refused", Cfg: with("https://provider.example.org/?a=b"), Want: engine.ErrEndpoint},
		{Name: "an endpoint with user information is refused", Cfg: with("https://u:p@provider.example.org/"), Want: engine.ErrEndpoint},
		{Name: "an endpoint with a fragment is refused", Cfg: with("https://provider.example.org/#x"), Want: engine.ErrEndpoint},
	}
}

// KeylessCases are the cases of TestNew for a driver that needs no
// credential: EndpointCases, the zero configuration, and a User-Agent
// with languages.
func KeylessCases() []NewCase {
	return append(EndpointCases(engine.Config{}),
		NewCase{Name: "the zero configuration builds", Cfg: engine.Config{}},
		NewCase{Name: "a User-Agent and languages build", Cfg: engine.Config{UserAgent: UserAgent, Languages: []string{"en", "ja"}}},
	)
}

// Client is a plain client that, like the egress's, follows no redirect.
func Client() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Search asks d with a plain client and a generous deadline.
func Search(t testing.TB, d engine.Driver, req engine.Request) ([]engine.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.Search(ctx, Client(), req)
}

// SearchOnce asks d for "q" (in its first language, where it has one).
func SearchOnce(t testing.TB, d engine.Driver) ([]engine.Result, error) {
	t.Helper()
	return Search(t, d, engine.Request{Query: "q", Count: 10})
}

// AssertClass checks that err is an *engine.Error of class c with wait
// retry, and that no result came with it.
func AssertClass(t testing.TB, res []engine.Result, err error, c response.EngineClass, retry time.Duration) {
	t.Helper()
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("Search = %d results, %v; want an *engine.Error of class %s", len(res), err, c)
	}
	if e.Class != c || e.RetryAfter != retry {
		t.Errorf("class %s, RetryAfter %v; want %s, %v (%v)", e.Class, e.RetryAfter, c, retry, err)
	}
	if res != nil {
		t.Errorf("%d results with the error, want none", len(res))
	}
}

// Seeds returns the bodies of the files of testdata matching pattern, in
// file name order, for a fuzz test's seed corpus; none is fatal.
func Seeds(f *testing.F, pattern string) [][]byte {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed fixtures: %v", err)
	}
	bodies := make([][]byte, 0, len(files))
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	return bodies
}

// CheckParseError checks the non-nil error of a parser: an *engine.Error
// of a known class, a RetryAfter within [0, 1h], no result with it and a
// message of at most 300 bytes.
func CheckParseError(t testing.TB, res []engine.Result, err error) {
	t.Helper()
	var e *engine.Error
	switch {
	case !errors.As(err, &e):
		t.Fatalf("error %v is not an *engine.Error", err)
	case !slices.Contains(response.EngineClasses(), e.Class):
		t.Fatalf("unknown class %q", e.Class)
	case e.RetryAfter < 0 || e.RetryAfter > time.Hour:
		t.Fatalf("RetryAfter %v outside [0, 1h]", e.RetryAfter)
	case res != nil:
		t.Fatalf("%d results with the error %v", len(res), err)
	case len(err.Error()) > 300:
		t.Fatalf("error message of %d bytes", len(err.Error()))
	}
}

// Abs returns n's distance from zero, less one for a negative n so that
// it cannot overflow: a fuzzed int made an index or a bound.
func Abs(n int) int {
	if n < 0 {
		return -(n + 1) // -MinInt overflows
	}
	return n
}

// ContentType returns a function that makes a fresh header whose
// Content-Type is ct: a fake's answer header, new at each call so that a
// test may change it.
func ContentType(ct string) func() http.Header {
	return func() http.Header { return http.Header{"Content-Type": {ct}} }
}

// With returns a copy of h with the pairs kv (name, value, ...) set.
func With(h http.Header, kv ...string) http.Header {
	h = h.Clone()
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// Config is the configuration the tests give the driver id: the tests'
// User-Agent and English.
func Config(id string) engine.Config {
	return engine.Config{ID: id, UserAgent: UserAgent, Languages: []string{"en"}}
}

// Builder returns the build function of the helpers below: the driver
// newDriver makes of cfg, its Endpoint set to url+Prefix.
func Builder(newDriver engine.Factory, cfg engine.Config) func(t *testing.T, url string) engine.Driver {
	return func(t *testing.T, url string) engine.Driver {
		t.Helper()
		return NewDriver(t, newDriver, url, cfg)
	}
}

// AskOnce sends req to the driver build makes for a fake serving c at
// path, and returns the one request the fake received; an error of the
// search fails the test.
func AskOnce[D engine.Driver](t *testing.T, path string, c Canned, build func(t *testing.T, url string) D, req engine.Request) *http.Request {
	t.Helper()
	srv, rec := Fake(t, path, c)
	if _, err := Search(t, build(t, srv.URL), req); err != nil {
		t.Fatal(err)
	}
	return rec.One(t)
}

// AssertRequest checks that r is a GET of Prefix+path whose headers
// named in want have their values ("" for a header that must be absent).
func AssertRequest(t testing.TB, r *http.Request, path string, want map[string]string) {
	t.Helper()
	if r.Method != http.MethodGet || r.URL.Path != Prefix+path {
		t.Errorf("request %s %s, want GET %s%s", r.Method, r.URL.Path, Prefix, path)
	}
	for k, w := range want {
		if got := r.Header.Get(k); got != w {
			t.Errorf("%s = %q, want %q", k, got, w)
		}
	}
}

// QueryCase is one case of QueryCases: a request and the parameters of
// the query it sends that differ from the defaults.
type QueryCase struct {
	Name string
	Req  engine.Request
	Want url.Values
}

// QueryCases runs each case as a subtest: ask sends Req and returns the
// request the provider received, whose query must be defaults with
// Want's parameters set over them.
func QueryCases(t *testing.T, ask func(*testing.T, engine.Request) *http.Request, defaults url.Values, cases []QueryCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got := ask(t, tt.Req)
			want := maps.Clone(defaults)
			maps.Copy(want, tt.Want)
			if g := got.URL.Query(); !reflect.DeepEqual(g, want) {
				t.Errorf("query = %v, want %v", g, want)
			}
		})
	}
}

// EndpointPath checks the endpoint rule (docs/design/decisions.md, engine
// endpoints) with a client
// that never leaves the process and answers c: for each endpoint of
// cases, the driver newDriver makes of cfg with that Endpoint asks, once
// and its query aside, the URL the endpoint maps to.
func EndpointPath(t *testing.T, newDriver engine.Factory, cfg engine.Config, c Canned, cases map[string]string) {
	t.Helper()
	for _, endpoint := range slices.Sorted(maps.Keys(cases)) {
		t.Run(endpoint, func(t *testing.T) {
			cfg := cfg
			cfg.Endpoint = endpoint
			d, err := newDriver(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rec := &Recorder{}
			client := &http.Client{Transport: rec.Transport(c)}
			if _, err := d.Search(context.Background(), client, engine.Request{Query: "q", Count: 10}); err != nil {
				t.Fatal(err)
			}
			u := *rec.One(t).URL
			u.RawQuery = ""
			if want := cases[endpoint]; u.String() != want {
				t.Errorf("asked %s, want %s", u.String(), want)
			}
		})
	}
}

// CountCase is one case of Count: the count asked and the number of
// results that must come back.
type CountCase struct {
	Name  string
	Count int
	Want  int
}

// Count checks that at most the count asked is returned, from the top of
// the provider's order, and LIM-S3 when none is asked. c must answer 25
// usable results, the i-th with the URL resultURL(i); each case runs as
// a subtest, the four every driver shares and then extra.
func Count[D engine.Driver](t *testing.T, path string, c Canned, build func(t *testing.T, url string) D, resultURL func(i int) string, extra ...CountCase) {
	t.Helper()
	cases := append([]CountCase{
		{Name: "LIM-S3 asked, LIM-S3 kept", Count: limits.S3ResultsPerEngine, Want: 10},
		{Name: "no count keeps LIM-S3", Count: 0, Want: 10},
		{Name: "one asked, one kept", Count: 1, Want: 1},
		{Name: "more asked than sent keeps what was sent", Count: 30, Want: 25},
	}, extra...)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv, _ := Fake(t, path, c)
			res, err := Search(t, build(t, srv.URL), engine.Request{Query: "q", Count: tt.Count})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != tt.Want {
				t.Fatalf("%d results, want %d", len(res), tt.Want)
			}
			for i, r := range res {
				if want := resultURL(i); r.URL != want {
					t.Errorf("result %d is %s, want %s", i, r.URL, want)
				}
			}
		})
	}
}

// Empty checks that each body of bodies, answered at 200 with header, is
// no result (an empty, non-nil list) and no error; each runs as a
// subtest of its name.
func Empty[D engine.Driver](t *testing.T, path string, header http.Header, build func(t *testing.T, url string) D, bodies map[string]string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(bodies)) {
		t.Run(name, func(t *testing.T) {
			srv, _ := Fake(t, path, Canned{Status: http.StatusOK, Header: header, Body: []byte(bodies[name])})
			res, err := SearchOnce(t, build(t, srv.URL))
			if err != nil || res == nil || len(res) != 0 {
				t.Fatalf("Search = %#v, %v; want no result and no error", res, err)
			}
		})
	}
}

// StatusCase is one case of StatusCases: an answer and the class and
// wait of the error the driver must make of it.
type StatusCase struct {
	Name   string
	Status int
	Header http.Header
	Body   string
	Class  response.EngineClass
	Retry  time.Duration
}

// StatusCases runs each case as a subtest: the driver build makes for a
// fake answering the case at path, asked once, returns no result and an
// *engine.Error of the case's class and wait (AssertClass) whose message
// holds none of secrets.
func StatusCases[D engine.Driver](t *testing.T, path string, build func(t *testing.T, url string) D, cases []StatusCase, secrets ...string) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv, _ := Fake(t, path, Canned{Status: tt.Status, Header: tt.Header, Body: []byte(tt.Body)})
			res, err := SearchOnce(t, build(t, srv.URL))
			AssertClass(t, res, err, tt.Class, tt.Retry)
			assertNoSecret(t, err, secrets)
		})
	}
}

// TextCase is one case of ErrorsKeepProviderText: an answer, the query
// asked ("q" when empty), what the error's message must hold and what it
// must not.
type TextCase struct {
	Name   string
	Status int
	Body   string
	Query  string
	Keep   string   // "" for anything
	Drop   []string // each non-empty
}

// ErrorsKeepProviderText runs each case as a subtest: the driver build
// makes for a fake answering Status, header and Body at path returns an
// error whose message holds Keep, none of Drop (the provider's text, the
// query, a key) and at most 200 bytes.
func ErrorsKeepProviderText[D engine.Driver](t *testing.T, path string, header http.Header, build func(t *testing.T, url string) D, cases []TextCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv, _ := Fake(t, path, Canned{Status: tt.Status, Header: header, Body: []byte(tt.Body)})
			q := cmp.Or(tt.Query, "q")
			_, err := Search(t, build(t, srv.URL), engine.Request{Query: q, Count: 10})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.Keep) || len(msg) > 200 {
				t.Errorf("error %q: want %q in it, at most 200 bytes", msg, tt.Keep)
			}
			for _, drop := range tt.Drop {
				if drop == "" || strings.Contains(msg, drop) {
					t.Errorf("error %q: want %q not in it", msg, drop)
				}
			}
		})
	}
}

// RefusedWithoutRequest runs each request of reqs as a subtest of its
// name: the driver build makes for a fake answering c at path refuses it
// as a bad response (AssertClass, no wait) whose message holds none of
// secrets, and sends no request.
func RefusedWithoutRequest[D engine.Driver](t *testing.T, path string, c Canned, build func(t *testing.T, url string) D, reqs map[string]engine.Request, secrets ...string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(reqs)) {
		t.Run(name, func(t *testing.T) {
			srv, rec := Fake(t, path, c)
			res, err := Search(t, build(t, srv.URL), reqs[name])
			AssertClass(t, res, err, response.ClassBadResponse, 0)
			assertNoSecret(t, err, secrets)
			if n := len(rec.Requests()); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

// assertNoSecret checks that err's message holds none of secrets.
func assertNoSecret(t testing.TB, err error, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error %q carries the secret %q", err, s)
		}
	}
}
