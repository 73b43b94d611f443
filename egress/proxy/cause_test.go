package proxy

import (
	"crypto/x509"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/shared/contract"
)

// TestAFailLineNamesItsCauseAndHost: the egress's fail lines once said
// only "network", and an operator could not tell a name that does not
// exist from a firewall or a certificate. A request the policy admitted
// that fails upstream is logged with the host and the cause.
func TestAFailLineNamesItsCauseAndHost(t *testing.T) {
	closed := closedPort(t)
	stalled := stalledListener(t)
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(hello))
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the egress breaks off
	untrusted.StartTLS()
	t.Cleanup(untrusted.Close)
	hangUp := func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}
	// silentEnv's upstream answers nothing until the test is over: not
	// even after the egress gives up (a handler that returned when its
	// request's context ended would let the server write a 200 that a
	// loaded machine can deliver before the egress's deadline is seen).
	silentEnv := func(t *testing.T) *env {
		stop := make(chan struct{})
		e := publicEnv(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-stop }), envOptions{})
		t.Cleanup(func() { close(stop) }) // before the server's Close, which waits for its handlers
		return e
	}
	for _, tc := range []struct {
		name   string
		env    func(t *testing.T) *env
		url    string
		cr     contract.Request
		reason contract.Reason
		cause  dialer.Cause
		host   string
	}{
		{"a name that does not exist", func(t *testing.T) *env { return publicEnv(t, http.HandlerFunc(hello), envOptions{}) },
			"https://nx.test/", contract.Request{}, contract.ReasonNetwork, dialer.CauseNXDomain, "nx.test"},
		{"a port nothing listens on", routedEnv(closed, envOptions{}),
			"https://example.com/", contract.Request{}, contract.ReasonNetwork, dialer.CauseRefused, "example.com"},
		{"a dial that fails otherwise", routedEnv("", envOptions{}),
			"https://example.com/", contract.Request{}, contract.ReasonNetwork, dialer.CauseConnect, "example.com"},
		{"a certificate not trusted", routedEnv(hostPort(untrusted), envOptions{roots: x509.NewCertPool()}),
			"https://example.com/", contract.Request{}, contract.ReasonNetwork, dialer.CauseTLS, "example.com"},
		{"a handshake that never ends", routedEnv(stalled, envOptions{connectTimeout: 200 * time.Millisecond}),
			"https://example.com/", contract.Request{}, contract.ReasonTimeout, dialer.CauseConnectTimeout, "example.com"},
		{"a host that hangs up without answering", func(t *testing.T) *env { return publicEnv(t, http.HandlerFunc(hangUp), envOptions{}) },
			"https://example.com/", contract.Request{}, contract.ReasonNetwork, dialer.CauseClosed, "example.com"},
		{"an answer that never comes", silentEnv,
			"https://example.com/", contract.Request{Deadline: 200 * time.Millisecond}, contract.ReasonTimeout, dialer.CauseResponseTimeout, "example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.env(t)
			if r := e.do("GET", tc.url, tc.cr); r.refusal != tc.reason {
				t.Fatalf("got %d %q, want %q", r.status, r.refusal, tc.reason)
			}
			lines := e.logLines()
			var got map[string]any
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"decision": "fail", "reason": string(tc.reason), "cause": string(tc.cause), "host": tc.host}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v: %v", k, got[k], v, got)
				}
			}
		})
	}
}

// TestARefusalLineNamesNoHostNorCause: a name whose every address is
// refused is a refusal; its line names neither the host nor a cause.
func TestARefusalLineNamesNoHostNorCause(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	e.dns.Set(t, "lo.test. 60 IN A 127.0.0.1")
	e.do("GET", "https://lo.test/", contract.Request{})
	var got map[string]any
	if err := json.Unmarshal([]byte(e.logLines()[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got["decision"] != "refuse" || got["host"] != nil || got["cause"] != nil {
		t.Errorf("got %v, want a refusal without host or cause", got)
	}
}

// routedEnv returns an egress whose dials of example.com (publicAddr:443)
// reach to; "" routes nowhere.
func routedEnv(to string, o envOptions) func(t *testing.T) *env {
	return func(t *testing.T) *env {
		o.routes = map[string]string{}
		if to != "" {
			o.routes[publicAddr+":443"] = to
		}
		e := newEnv(t, o)
		e.dns.Set(t, "example.com. 60 IN A "+publicAddr)
		return e
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// stalledListener returns a loopback address that accepts connections
// and never answers on them.
func stalledListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return ln.Addr().String()
}
