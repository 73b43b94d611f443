// Package enginetest is test support for engine drivers: a loopback fake
// engine serving fixtures and recording requests. It also holds what the
// driver packages' tests share beyond the fake: fixture loading, driver
// construction at an endpoint prefix, a plain client, the checks of a
// classified failure and the seeds and checks of a parser's fuzz test.
package enginetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
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
// driver's caller unchanged: an egress refusal is denied, a deadline
// passed is a timeout. path is the provider's path the driver asks;
// build makes the driver for a provider at url.
func FetchFailures(t *testing.T, path string, build func(t *testing.T, url string) engine.Driver) {
	t.Run("an egress refusal is denied", func(t *testing.T) {
		h := http.Header{contract.HeaderRefusal: {string(contract.ReasonEngine)}}
		srv, _ := Fake(t, path, Canned{Status: contract.Status(contract.ReasonEngine), Header: h, Body: []byte("rypsok-egress: engine\n")})
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
	case !slices.Contains(response.EngineClasses, e.Class):
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
