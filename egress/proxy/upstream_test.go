package proxy

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elazarl/goproxy"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// fakeUpstreamProxy is an operator's proxy: it tunnels every CONNECT to
// target and counts the tunnels.
func fakeUpstreamProxy(t *testing.T, target string) (*url.URL, *atomic.Int64) {
	t.Helper()
	var tunnels atomic.Int64
	gp := goproxy.NewProxyHttpServer()
	gp.ConnectDial = func(network, addr string) (net.Conn, error) {
		tunnels.Add(1)
		return net.Dial(network, target)
	}
	srv := httptest.NewServer(gp)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u, &tunnels
}

func TestTheUpstreamProxyCarriesEngineTrafficAndAgentTrafficOnlyWhenItEnforcesTheProfile(t *testing.T) {
	up, pool := tlsUpstream(t, http.HandlerFunc(hello))
	ex, err := policy.ParseEndpoint("https://example.com")
	if err != nil {
		t.Fatal(err)
	}
	engines := map[string][]policy.Endpoint{"ex": {ex}}
	engine := contract.Request{Profile: contract.ProfileEngine, Engine: "ex"}
	for _, tc := range []struct {
		name          string
		upstreamAgent bool
		agentStatus   int
		tunnels       int64
	}{
		{"a proxy that does not enforce the profile", false, 502, 1},
		{"a proxy that enforces the profile", true, 200, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxyURL, tunnels := fakeUpstreamProxy(t, hostPort(up))
			e := newEnv(t, envOptions{roots: pool, upstream: proxyURL, upstreamAgent: tc.upstreamAgent,
				policy: policy.Config{Engines: engines}})
			e.dns.Set(t, "example.com. 60 IN A 127.0.0.1") // loopback: refused to a direct agent dial
			if r := e.do("GET", "https://example.com/search", engine); r.status != 200 || string(r.body) != "hello" {
				t.Fatalf("engine through the proxy: got %d %q", r.status, r.refusal)
			}
			if r := e.do("GET", "https://example.com/page", contract.Request{}); r.status != tc.agentStatus {
				t.Fatalf("agent: got %d %q, want %d", r.status, r.refusal, tc.agentStatus)
			}
			if got := tunnels.Load(); got != tc.tunnels {
				t.Fatalf("the proxy carried %d tunnels, want %d", got, tc.tunnels)
			}
		})
	}
}

func TestUpstreamConnectionsAreBounded(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 4)
	block := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		hello(w, r)
	})
	e := publicEnv(t, block, envOptions{slots: 1})
	first := make(chan result, 1)
	go func() { first <- e.do("GET", "https://example.com/1", contract.Request{}) }()
	<-arrived // the only slot is held by the first request
	r := e.do("GET", "https://example.com/2", contract.Request{Deadline: 300 * time.Millisecond})
	if r.refusal != contract.ReasonTimeout {
		t.Fatalf("second request while the slot is held: got %d %q, want timeout", r.status, r.refusal)
	}
	close(release)
	if r := <-first; r.status != 200 {
		t.Fatalf("first request: got %d %q", r.status, r.refusal)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for e.proxy.slots.InUse() > 0 && ctx.Err() == nil {
		e.proxy.CloseIdle() // the pooled connection holds its slot until closed
		time.Sleep(10 * time.Millisecond)
	}
	if n := e.proxy.slots.InUse(); n != 0 {
		t.Fatalf("%d slots still held after closing idle connections", n)
	}
}
