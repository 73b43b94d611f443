package searxng

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/shared/contract"
)

// prefix is the path of the fakes' endpoint: the driver must put /search
// under it.
const prefix = "/prefix"

// testUA is the User-Agent the tests configure.
const testUA = "rypsok/test (+https://github.com/rypsok/rypsok; ops@example.org)"

// canned is one answer of a fake provider.
type canned struct {
	status int
	header http.Header
	body   []byte
}

// fixture returns the bytes of testdata/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recorder keeps the requests a fake received.
type recorder struct {
	mu  sync.Mutex
	got []*http.Request
}

func (r *recorder) add(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, req)
}

func (r *recorder) requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.got...)
}

// fake starts a loopback instance serving c at prefix+searchPath, the way
// the egress forwards an answer: its headers, status and body, then the
// trailer saying the body is complete. Any other path is a 404 with an
// empty body.
func fake(t *testing.T, c canned) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(r.Clone(context.Background()))
		if r.URL.Path != prefix+searchPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Trailer", contract.TrailerEnd)
		for k, vs := range c.header {
			w.Header()[k] = vs
		}
		w.WriteHeader(c.status)
		w.Write(c.body)
		w.Header().Set(contract.TrailerEnd, string(contract.EndComplete))
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// newDriver builds a driver at the endpoint url+prefix.
func newDriver(t *testing.T, url string) engine.Driver {
	t.Helper()
	d, err := New(engine.Config{ID: "searxng", Endpoint: url + prefix, UserAgent: testUA, Languages: []string{"en"}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// search asks d with a plain client and a generous deadline.
func search(t *testing.T, d engine.Driver, req engine.Request) ([]engine.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.Search(ctx, client(), req)
}

// client is a plain client that, like the egress's, follows no redirect.
func client() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// roundTrip is an http.RoundTripper that answers every request with c
// and its complete trailer, recording the request: a client that never
// leaves the process.
type roundTrip struct {
	c   canned
	rec *recorder
}

func (rt roundTrip) RoundTrip(req *http.Request) (*http.Response, error) {
	rt.rec.add(req)
	h := rt.c.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{
		StatusCode: rt.c.status,
		Header:     h,
		Body:       io.NopCloser(bytes.NewReader(rt.c.body)),
		Trailer:    http.Header{contract.TrailerEnd: {string(contract.EndComplete)}},
		Request:    req,
	}, nil
}

// jsonHeader is the Content-Type of a SearXNG JSON answer.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}}
}

// htmlHeader is the Content-Type of SearXNG's 403 and 429 answers (the
// 429's body is plain text all the same).
func htmlHeader() http.Header {
	return http.Header{"Content-Type": {"text/html; charset=utf-8"}}
}

// httptestBlocking starts a loopback instance that answers nothing until
// release is closed or the request ends, and returns its URL.
func httptestBlocking(t *testing.T, release <-chan struct{}) string {
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
