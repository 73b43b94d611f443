package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// benchBody is the body streamed by the benchmarks: LIM-F3, 5 MiB, the
// largest body the egress forwards.
var benchBody = bytes.Repeat([]byte("0123456789abcdef"), limits.F3BodyBytes/16)

func bodyHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(benchBody)
}

// fetch reads one whole body with c.
func fetch(b *testing.B, c *http.Client, url string) {
	resp, err := c.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || n != int64(len(benchBody)) {
		b.Fatalf("read %d bytes, err %v", n, err)
	}
	if _, refused := contract.RefusalOf(resp); refused {
		b.Fatal("refused")
	}
}

// BenchmarkStream5MiB compares a 5 MiB body fetched directly with the
// same body fetched through the egress (Unix socket, policy, TLS
// originated by the egress, metered stream), over http and https.
func BenchmarkStream5MiB(b *testing.B) {
	for _, tlsOn := range []bool{false, true} {
		scheme := "http"
		var up *httptest.Server
		if tlsOn {
			scheme = "https"
			up = httptest.NewTLSServer(http.HandlerFunc(bodyHandler))
		} else {
			up = httptest.NewServer(http.HandlerFunc(bodyHandler))
		}
		origin := strings.TrimPrefix(up.URL, scheme+"://")
		direct := up.Client()
		direct.Transport.(*http.Transport).DisableCompression = true
		b.Run(scheme+"/direct", func(b *testing.B) {
			b.SetBytes(int64(len(benchBody)))
			for b.Loop() {
				fetch(b, direct, up.URL+"/")
			}
		})
		b.Run(scheme+"/egress", func(b *testing.B) {
			e := benchEnv(b, up, origin)
			b.SetBytes(int64(len(benchBody)))
			for b.Loop() {
				fetch(b, e, up.URL+"/")
			}
		})
		up.Close()
	}
}

// benchEnv starts an egress admitting origin and returns a client of it.
func benchEnv(b *testing.B, up *httptest.Server, origin string) *http.Client {
	rules, err := policy.ParseRules([]string{origin})
	if err != nil {
		b.Fatal(err)
	}
	o := envOptions{policy: policy.Config{AllowHTTP: true, Allow: rules}}
	if cfg := up.Client().Transport.(*http.Transport).TLSClientConfig; cfg != nil {
		o.roots = cfg.RootCAs
	}
	return newEnv(b, o).client
}
