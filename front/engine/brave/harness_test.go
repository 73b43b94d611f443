package brave

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/shared/contract"
)

// prefix is the path of the fakes' endpoint: the driver must put the
// web search path under it.
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

// fake starts a loopback provider serving c at prefix+searchPath, the way
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

// testKey is the key the tests configure.
const testKey = "BSA-test-key-0123456789"

// newDriver builds a driver at the endpoint url+prefix.
func newDriver(t *testing.T, url string) engine.Driver {
	t.Helper()
	d, err := New(engine.Config{ID: "brave", Endpoint: url + prefix, Credential: testKey, UserAgent: testUA, Languages: []string{"en"}})
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

// headerSets returns the header sets of testdata/brave-headers.txt by the
// title of their section, its first "## " line ("429 per-second burst
// exceeded (body: ..."), each with its status.
func headerSets(t testing.TB) map[string]canned {
	t.Helper()
	sets := map[string]canned{}
	var title string
	continued := false // the previous line was a title line: this one continues it
	for _, line := range strings.Split(string(fixture(t, "brave-headers.txt")), "\n") {
		line = strings.TrimSpace(line)
		isTitle := strings.HasPrefix(line, "## ")
		wasTitle := continued
		continued = isTitle
		switch {
		case isTitle && wasTitle:
		case isTitle:
			title = strings.TrimPrefix(line, "## ")
		case line == "" || strings.HasPrefix(line, "#") || title == "":
		case strings.HasPrefix(line, "HTTP/1.1 "):
			code, _, _ := strings.Cut(strings.TrimPrefix(line, "HTTP/1.1 "), " ")
			status, err := strconv.Atoi(code)
			if err != nil {
				t.Fatalf("brave-headers.txt: %q", line)
			}
			sets[title] = canned{status: status, header: http.Header{}}
		default:
			k, v, ok := strings.Cut(line, ":")
			c, seen := sets[title]
			if !ok || !seen {
				t.Fatalf("brave-headers.txt: %q", line)
			}
			c.header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	return sets
}

// headerSet returns the header set whose section title starts with
// prefix, without Content-Encoding (the fake sends the bytes as they are).
func headerSet(t testing.TB, prefix string) http.Header {
	t.Helper()
	for title, c := range headerSets(t) {
		if strings.HasPrefix(title, prefix) {
			h := c.header.Clone()
			h.Del("Content-Encoding")
			return h
		}
	}
	t.Fatalf("brave-headers.txt has no section %q", prefix)
	return nil
}

// httptestBlocking starts a loopback provider that answers nothing until
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

// jsonHeader is the Content-Type of a Brave answer.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}}
}
