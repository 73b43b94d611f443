package proxy

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

const publicAddr = "93.184.216.34"

func hello(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprint(w, "hello")
}

// publicEnv is an egress whose upstream fake answers for the public
// address publicAddr:443, named example.com in DNS.
func publicEnv(t *testing.T, h http.Handler, o envOptions) *env {
	t.Helper()
	up, pool := tlsUpstream(t, h)
	o.routes = map[string]string{publicAddr + ":443": hostPort(up)}
	o.roots = pool
	e := newEnv(t, o)
	e.dns.Set(t, "example.com. 60 IN A "+publicAddr)
	return e
}

func TestForwardsAnAdmittedRequest(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	r := e.do("GET", "https://Example.COM./secret-path?q=secret-query", contract.Request{})
	if r.status != 200 || r.refusal != "" || string(r.body) != "hello" || r.end != contract.EndComplete {
		t.Fatalf("got status %d refusal %q body %q end %q; want 200, none, hello, complete", r.status, r.refusal, r.body, r.end)
	}
	if got := e.dials(); len(got) != 1 || got[0] != publicAddr+":443" {
		t.Fatalf("dialled %v, want [%s:443]", got, publicAddr)
	}
	if v := r.header.Get(contract.HeaderVersion); v != "1" {
		t.Errorf("%s = %q, want 1", contract.HeaderVersion, v)
	}
}

// refusedAnswers are DNS answers every address of which the agent profile
// refuses.
var refusedAnswers = []struct {
	name    string
	records []string
}{
	{"loopback", []string{"a.test. 60 IN A 127.0.0.1"}},
	{"loopback elsewhere in 127/8", []string{"a.test. 60 IN A 127.255.255.254"}},
	{"IPv6 loopback", []string{"a.test. 60 IN AAAA ::1"}},
	{"private 10/8", []string{"a.test. 60 IN A 10.0.0.1"}},
	{"private 172.16/12", []string{"a.test. 60 IN A 172.31.255.255"}},
	{"private 192.168/16", []string{"a.test. 60 IN A 192.168.1.1"}},
	{"cloud metadata", []string{"a.test. 60 IN A 169.254.169.254"}},
	{"this network", []string{"a.test. 60 IN A 0.0.0.0"}},
	{"shared address space", []string{"a.test. 60 IN A 100.64.0.1"}},
	{"IPv4-mapped loopback", []string{"a.test. 60 IN AAAA ::ffff:127.0.0.1"}},
	{"NAT64 of loopback", []string{"a.test. 60 IN AAAA 64:ff9b::7f00:1"}},
	{"NAT64 of metadata", []string{"a.test. 60 IN AAAA 64:ff9b::a9fe:a9fe"}},
	{"6to4 of private", []string{"a.test. 60 IN AAAA 2002:a00:1::1"}},
	{"unique local", []string{"a.test. 60 IN AAAA fd00::1"}},
	{"link-local v6", []string{"a.test. 60 IN AAAA fe80::1"}},
	{"loopback and private together", []string{"a.test. 60 IN A 127.0.0.1", "a.test. 60 IN A 10.1.1.1", "a.test. 60 IN AAAA ::1"}},
	{"CNAME to a loopback name", []string{"a.test. 60 IN CNAME lo.test.", "lo.test. 60 IN A 127.0.0.1"}},
}

func TestANameWhoseAddressesAreAllRefusedAnswersAsUnreachable(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	unreachable := e.do("GET", "https://nx.test/", contract.Request{})
	if unreachable.refusal != contract.ReasonNetwork || unreachable.status != 502 {
		t.Fatalf("unresolvable name: got %d %q, want 502 network", unreachable.status, unreachable.refusal)
	}
	for _, tc := range refusedAnswers {
		t.Run(tc.name, func(t *testing.T) {
			e.dns.Set(t, tc.records...)
			r := e.do("GET", "https://a.test/", contract.Request{})
			if r.status != unreachable.status || r.refusal != unreachable.refusal || !bytes.Equal(r.body, unreachable.body) {
				t.Errorf("got %d %q %q, want exactly the unreachable answer %d %q %q",
					r.status, r.refusal, r.body, unreachable.status, unreachable.refusal, unreachable.body)
			}
		})
	}
	if d := e.dials(); len(d) != 0 {
		t.Fatalf("dialled %v, want nothing", d)
	}
}

func TestAMixedAnswerDialsOnlyThePublicAddress(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	e.dns.Set(t, "mixed.test. 60 IN A 10.0.0.1", "mixed.test. 60 IN A 127.0.0.1", "mixed.test. 60 IN A "+publicAddr)
	e.dns.Set(t, "example.com. 60 IN CNAME mixed.test.")
	r := e.do("GET", "https://example.com/", contract.Request{})
	if r.status != 200 || string(r.body) != "hello" {
		t.Fatalf("got %d %q, want 200 hello", r.status, r.body)
	}
	if got := e.dials(); len(got) != 1 || got[0] != publicAddr+":443" {
		t.Fatalf("dialled %v, want only %s:443", got, publicAddr)
	}
}

func TestALiteralAddressInARefusedRangeIsDenied(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	for _, host := range []string{
		"127.0.0.1", "127.1", "2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "017700000001", "127.0.0.1.",
		"[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:1]", "[64:ff9b::7f00:1]",
		"[64:ff9b::127.0.0.1]", "[2002:7f00:1::]", "[::127.0.0.1]", "169.254.169.254", "[fe80::1]", "10.1.2.3",
		"100.64.0.1", "[fd00::1]", "192.0.0.8", "198.18.0.1", "240.0.0.1", "255.255.255.255", "0.0.0.0",
		"192.0.2.1", "198.51.100.1", "203.0.113.1", "[2001:db8::1]", "[3fff::1]", "[100::1]", "[fec0::1]", "[::]",
	} {
		t.Run(host, func(t *testing.T) {
			r := e.do("GET", "https://"+host+"/", contract.Request{})
			if r.status != 403 || r.refusal != contract.ReasonAddress {
				t.Errorf("got %d %q, want 403 %q", r.status, r.refusal, contract.ReasonAddress)
			}
		})
	}
	if d := e.dials(); len(d) != 0 {
		t.Fatalf("dialled %v, want nothing", d)
	}
}

func TestARebindingNameIsJudgedAtEveryConnect(t *testing.T) {
	closing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close") // the next request dials again
		hello(w, r)
	})
	e := publicEnv(t, closing, envOptions{})
	e.dns.Set(t, "example.com. 0 IN A "+publicAddr)
	if r := e.do("GET", "https://example.com/", contract.Request{}); r.status != 200 {
		t.Fatalf("first answer public: got %d %q, want 200", r.status, r.refusal)
	}
	e.dns.Set(t, "example.com. 0 IN A 127.0.0.1")
	if r := e.do("GET", "https://example.com/", contract.Request{}); r.refusal != contract.ReasonNetwork {
		t.Fatalf("second answer loopback: got %d %q, want network", r.status, r.refusal)
	}
	if got := e.dials(); len(got) != 1 {
		t.Fatalf("dialled %v, want only the public address once", got)
	}
}

func TestACNAMEChainThroughADeniedNameAnswersAsUnreachable(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{policy: policy.Config{Deny: mustRules(t, "internal.corp")}})
	e.dns.Set(t, "alias.test. 60 IN CNAME internal.corp.", "internal.corp. 60 IN A "+publicAddr)
	if r := e.do("GET", "https://alias.test/", contract.Request{}); r.refusal != contract.ReasonNetwork {
		t.Fatalf("got %d %q, want network", r.status, r.refusal)
	}
	if r := e.do("GET", "https://internal.corp/", contract.Request{}); r.refusal != contract.ReasonDenyRule {
		t.Fatalf("the denied name itself: got %d %q, want deny_rule", r.status, r.refusal)
	}
	if d := e.dials(); len(d) != 0 {
		t.Fatalf("dialled %v, want nothing", d)
	}
}

func mustRules(t *testing.T, ss ...string) policy.Rules {
	t.Helper()
	rs, err := policy.ParseRules(ss)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestRequestsOffProfileAreRefused(t *testing.T) {
	wiki, err := policy.ParseEndpoint("https://wiki.test/w")
	if err != nil {
		t.Fatal(err)
	}
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{policy: policy.Config{
		Engines: map[string][]policy.Endpoint{"wiki": {wiki}},
	}})
	engine := contract.Request{Profile: contract.ProfileEngine, Engine: "wiki"}
	for _, tc := range []struct {
		name    string
		method  string
		url     string
		cr      contract.Request
		headers []string
		want    contract.Reason
	}{
		{"a POST of the agent profile", "POST", "https://example.com/", contract.Request{}, nil, contract.ReasonMethod},
		{"a DELETE of the agent profile", "DELETE", "https://example.com/", contract.Request{}, nil, contract.ReasonMethod},
		{"plain http when http is not allowed", "GET", "http://example.com/", contract.Request{}, nil, contract.ReasonScheme},
		{"an ftp URL", "GET", "ftp://example.com/", contract.Request{}, nil, contract.ReasonScheme},
		{"a port outside LIM-F8", "GET", "https://example.com:8443/", contract.Request{}, nil, contract.ReasonPort},
		{"port 80 over https when http is not allowed", "GET", "https://example.com:80/", contract.Request{}, nil, contract.ReasonPort},
		{"a port that is not a number", "GET", "https://example.com:99999/", contract.Request{}, nil, contract.ReasonPort},
		{"a cookie", "GET", "https://example.com/", contract.Request{}, []string{"Cookie", "a=b"}, contract.ReasonHeader},
		{"an authorization header", "GET", "https://example.com/", contract.Request{}, []string{"Authorization", "Bearer x"}, contract.ReasonHeader},
		{"an upgrade", "GET", "https://example.com/", contract.Request{}, []string{"Upgrade", "websocket"}, contract.ReasonHeader},
		{"a name with an empty label", "GET", "https://a..example.com/", contract.Request{}, nil, contract.ReasonHost},
		{"a name over 253 octets", "GET", "https://" + strings.Repeat("a.", 127) + "com/", contract.Request{}, nil, contract.ReasonHost},
		{"a numeric name that is no address", "GET", "https://1.2.3.4.5/", contract.Request{}, nil, contract.ReasonHost},
		{"an unknown profile", "GET", "https://example.com/", contract.Request{}, []string{contract.HeaderProfile, "admin"}, contract.ReasonContract},
		{"another contract version", "GET", "https://example.com/", contract.Request{}, []string{contract.HeaderVersion, "2"}, contract.ReasonContract},
		{"a zero byte limit", "GET", "https://example.com/", contract.Request{}, []string{contract.HeaderMaxBytes, "0"}, contract.ReasonContract},
		{"an unknown engine", "GET", "https://wiki.test/w/api.php", contract.Request{Profile: contract.ProfileEngine, Engine: "other"}, nil, contract.ReasonEngine},
		{"an engine request to another host", "GET", "https://example.com/w/api.php", engine, nil, contract.ReasonEngine},
		{"an engine request outside its path", "GET", "https://wiki.test/wx/api.php", engine, nil, contract.ReasonEngine},
		{"an engine request on another port", "GET", "https://wiki.test:8443/w/api.php", engine, nil, contract.ReasonEngine},
		{"an engine request over http", "GET", "http://wiki.test/w/api.php", engine, nil, contract.ReasonEngine},
		{"an engine PUT", "PUT", "https://wiki.test/w/api.php", engine, nil, contract.ReasonMethod},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.url, tc.cr, tc.headers...)
			if r.refusal != tc.want || r.status != contract.Status(tc.want) {
				t.Errorf("got %d %q, want %d %q", r.status, r.refusal, contract.Status(tc.want), tc.want)
			}
		})
	}
	if d := e.dials(); len(d) != 0 {
		t.Fatalf("dialled %v, want nothing", d)
	}
}

// raw sends a request exactly as written and returns the status line and
// the refusal header.
func raw(t *testing.T, e *env, request string) (string, string) {
	t.Helper()
	conn, err := net.Dial("unix", e.client.Transport.(*contract.Client).Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Status, resp.Header.Get(contract.HeaderRefusal)
}

func TestRawRequestsOffProfileAreRefused(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	for _, tc := range []struct{ name, request, want string }{
		{"CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", "method"},
		{"userinfo in the URL", "GET https://user:pw@example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", "userinfo"},
		{"a user name alone", "GET https://user@example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", "userinfo"},
		{"origin form", "GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n", "contract"},
		{"a GET with a body", "GET https://example.com/ HTTP/1.1\r\nHost: example.com\r\nContent-Length: 3\r\n\r\nabc", "method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, refusal := raw(t, e, tc.request)
			if refusal != tc.want {
				t.Errorf("got %s refusal %q, want %q", status, refusal, tc.want)
			}
		})
	}
	if status, refusal := raw(t, e, "GET /healthz HTTP/1.1\r\nHost: egress\r\n\r\n"); !strings.HasPrefix(status, "200") || refusal != "" {
		t.Errorf("readiness: got %s %q, want 200", status, refusal)
	}
	if d := e.dials(); len(d) != 0 {
		t.Fatalf("dialled %v, want nothing", d)
	}
}

func TestAnAllowRuleReachesALoopbackOriginAndADenyRuleBeatsIt(t *testing.T) {
	up, pool := tlsUpstream(t, http.HandlerFunc(hello))
	origin := hostPort(up) // 127.0.0.1:port
	_, port, _ := net.SplitHostPort(origin)
	allowed := newEnv(t, envOptions{roots: pool, policy: policy.Config{Allow: mustRules(t, origin)}})
	if r := allowed.do("GET", "https://"+origin+"/", contract.Request{}); r.status != 200 || string(r.body) != "hello" {
		t.Fatalf("allowed origin: got %d %q %q, want 200 hello", r.status, r.refusal, r.body)
	}
	if r := allowed.do("GET", "https://127.0.0.1:1/", contract.Request{}); r.refusal != contract.ReasonPort {
		t.Fatalf("another port of the allowed address: got %d %q, want port", r.status, r.refusal)
	}
	allowed.dns.Set(t, "example.com. 60 IN A 127.0.0.1")
	if r := allowed.do("GET", "https://example.com:"+port+"/", contract.Request{}); r.refusal != contract.ReasonPort {
		t.Fatalf("a name of the allowed address: got %d %q, want port (the rule names the address)", r.status, r.refusal)
	}
	byName := newEnv(t, envOptions{roots: pool, policy: policy.Config{Allow: mustRules(t, "example.com:"+port)}})
	byName.dns.Set(t, "example.com. 60 IN A 127.0.0.1")
	if r := byName.do("GET", "https://example.com:"+port+"/", contract.Request{}); r.status != 200 {
		t.Fatalf("allowed name: got %d %q, want 200", r.status, r.refusal)
	}
	denied := newEnv(t, envOptions{roots: pool, policy: policy.Config{
		Allow: mustRules(t, origin),
		Deny:  mustRules(t, "127.0.0.0/8"),
	}})
	if r := denied.do("GET", "https://"+origin+"/", contract.Request{}); r.refusal != contract.ReasonDenyRule {
		t.Fatalf("deny beats allow: got %d %q, want deny_rule", r.status, r.refusal)
	}
}

func TestTheEngineProfileReachesOnlyItsEndpoint(t *testing.T) {
	ex, err := policy.ParseEndpoint("https://example.com")
	if err != nil {
		t.Fatal(err)
	}
	strict, err := policy.ParseEndpoint("https://example.com/strict")
	if err != nil {
		t.Fatal(err)
	}
	strict.PublicOnly = true
	up, pool := tlsUpstream(t, http.HandlerFunc(hello))
	e := newEnv(t, envOptions{roots: pool, routes: map[string]string{"10.0.0.7:443": hostPort(up)},
		policy: policy.Config{Engines: map[string][]policy.Endpoint{"ex": {ex}, "strict": {strict}}}})
	e.dns.Set(t, "example.com. 60 IN A 10.0.0.7")
	checkAnswers(t, e, []answerCase{
		{"an engine endpoint on a private address", "https://example.com/search", contract.Request{Profile: contract.ProfileEngine, Engine: "ex"}, 200, ""},
		{"the same URL by the agent profile", "https://example.com/search", contract.Request{}, 502, contract.ReasonNetwork},
		{"a public-only endpoint on a private address", "https://example.com/strict/x", contract.Request{Profile: contract.ProfileEngine, Engine: "strict"}, 502, contract.ReasonNetwork},
		{"another host for the engine", "https://other.test/search", contract.Request{Profile: contract.ProfileEngine, Engine: "ex"}, 403, contract.ReasonEngine},
	})
}

// answerCase is one GET through the egress and the answer expected.
type answerCase struct {
	name    string
	url     string
	cr      contract.Request
	status  int
	refusal contract.Reason
}

// checkAnswers sends each case's GET through e and compares the status
// and refusal of its answer.
func checkAnswers(t *testing.T, e *env, cases []answerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("GET", tc.url, tc.cr)
			if r.status != tc.status || r.refusal != tc.refusal {
				t.Errorf("got %d %q, want %d %q", r.status, r.refusal, tc.status, tc.refusal)
			}
		})
	}
}

// TestAnEngineEndpointOpensNothingToTheAgent is the attack of an operator
// who wrote a SearXNG endpoint on a loopback port (and, as the docs once
// said, an allow rule for it, which let web_fetch read the instance): with
// no allow rule, the engine reaches its endpoint, and an agent request to
// the same host and port is refused before anything is dialled.
func TestAnEngineEndpointOpensNothingToTheAgent(t *testing.T) {
	var paths syncBuffer
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(&paths, r.URL.Path)
		hello(w, r)
	}))
	t.Cleanup(searx.Close)
	ep, err := policy.ParseEndpoint(searx.URL)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{policy: policy.Config{AllowHTTP: true, Engines: map[string][]policy.Endpoint{"searx": {ep}}}})
	e.dns.Set(t, "searx.test. 60 IN A 127.0.0.1")
	_, port, _ := net.SplitHostPort(hostPort(searx))
	checkAnswers(t, e, []answerCase{
		{"the engine reaches its endpoint", searx.URL + "/search", contract.Request{Profile: contract.ProfileEngine, Engine: "searx"}, 200, ""},
		{"the agent is refused the endpoint's host and port", searx.URL + "/admin", contract.Request{}, 403, contract.ReasonPort},
		{"the agent is refused the endpoint's port by another name", "http://searx.test:" + port + "/admin", contract.Request{}, 403, contract.ReasonPort},
		{"another engine is refused the endpoint", searx.URL + "/admin", contract.Request{Profile: contract.ProfileEngine, Engine: "other"}, 403, contract.ReasonEngine},
	})
	if got := paths.String(); got != "/search\n" {
		t.Errorf("the instance was asked for %q, want only the engine's /search", got)
	}
}

func TestLimitsEndTheStreamWithTheirReason(t *testing.T) {
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write(make([]byte, 64<<20))
	zw.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/drip", func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("y"), 32<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb.Bytes())
	})
	mux.HandleFunc("/declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(10<<20))
		w.WriteHeader(200)
		w.Write([]byte("partial"))
	})
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/reset", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, _ := w.(http.Hijacker).Hijack()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789")
		buf.Flush()
		conn.Close()
	})
	e := publicEnv(t, mux, envOptions{maxBody: 1 << 20})
	for _, tc := range []struct {
		name    string
		path    string
		cr      contract.Request
		end     contract.End
		refusal contract.Reason
		bytes   int
	}{
		{"a slow drip outlives the request deadline", "/drip", contract.Request{Deadline: 500 * time.Millisecond}, contract.EndTimeout, "", -1},
		{"an endless body passes the request's byte limit", "/endless", contract.Request{MaxBytes: 100000}, contract.EndTooLarge, "", 100000},
		{"an endless body passes the egress's byte limit", "/endless", contract.Request{MaxBytes: 64 << 20}, contract.EndTooLarge, "", 1 << 20},
		{"a gzip bomb is cut after decompression", "/bomb", contract.Request{}, contract.EndTooLarge, "", 1 << 20},
		{"a declared length over the limit sends nothing", "/declared", contract.Request{}, contract.EndTooLarge, "", 0},
		{"an upstream reset mid-body", "/reset", contract.Request{}, contract.EndNetwork, "", 10},
		{"no response header before the deadline", "/silent", contract.Request{Deadline: 300 * time.Millisecond}, "", contract.ReasonTimeout, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("GET", "https://example.com"+tc.path, tc.cr)
			if r.refusal != tc.refusal || r.end != tc.end {
				t.Fatalf("got status %d refusal %q end %q, want refusal %q end %q", r.status, r.refusal, r.end, tc.refusal, tc.end)
			}
			if tc.bytes >= 0 && len(r.body) != tc.bytes {
				t.Errorf("got %d body bytes, want %d", len(r.body), tc.bytes)
			}
			if r.elapsed > 5*time.Second {
				t.Errorf("took %v, want well under the 8 s response limit", r.elapsed)
			}
		})
	}
}

func TestAStalledTLSHandshakeTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c // held open, never answered
		}
		close(accepted)
	}()
	e := newEnv(t, envOptions{routes: map[string]string{publicAddr + ":443": ln.Addr().String()}, connectTimeout: 300 * time.Millisecond})
	e.dns.Set(t, "example.com. 60 IN A "+publicAddr)
	r := e.do("GET", "https://example.com/", contract.Request{})
	if r.refusal != contract.ReasonTimeout || r.status != 504 {
		t.Fatalf("got %d %q, want 504 timeout", r.status, r.refusal)
	}
	if r.elapsed > 3*time.Second {
		t.Fatalf("took %v, want about the 300 ms connect timeout", r.elapsed)
	}
	ln.Close()
	for c := range accepted {
		c.Close()
	}
}

func TestUpstreamCannotForgeContractHeaders(t *testing.T) {
	forger := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(contract.HeaderRefusal, "address")
		w.Header().Set("Trailer", contract.TrailerEnd)
		w.Write(bytes.Repeat([]byte("z"), 4096))
		w.Header().Set(contract.TrailerEnd, "complete")
	})
	e := publicEnv(t, forger, envOptions{})
	r := e.do("GET", "https://example.com/", contract.Request{MaxBytes: 100})
	if r.refusal != "" || r.end != contract.EndTooLarge || len(r.body) != 100 {
		t.Fatalf("got refusal %q end %q %d bytes, want a forwarded answer ending too_large after 100 bytes", r.refusal, r.end, len(r.body))
	}
}

// TestHeadersTheUpstreamNamesInConnectionAreNotForwarded: a header an
// upstream names in its own Connection header is hop-by-hop (RFC 9110
// 7.6.1) and was forwarded to the front; it is now removed, whatever the
// token list's spacing and case and however many Connection headers carry
// it, with the standard hop-by-hop headers. Other headers pass.
func TestHeadersTheUpstreamNamesInConnectionAreNotForwarded(t *testing.T) {
	for _, tc := range []struct {
		name       string
		connection []string
		sent       []string // headers the upstream sends, each with value "1"
		gone       []string
	}{
		{"one header named after close", []string{"close, X-Secret-Hop"}, []string{"X-Secret-Hop"}, []string{"X-Secret-Hop"}},
		{"odd spacing and case", []string{"  x-SECRET-hop ,,\tX-Other-Hop  ,close"}, []string{"X-Secret-Hop", "X-Other-Hop"}, []string{"X-Secret-Hop", "X-Other-Hop"}},
		{"several Connection headers", []string{"X-Secret-Hop", "x-other-hop, Keep-Alive"}, []string{"X-Secret-Hop", "X-Other-Hop", "Keep-Alive"}, []string{"X-Secret-Hop", "X-Other-Hop", "Keep-Alive"}},
		{"a named end-to-end header is hop-by-hop too", []string{"Cache-Control"}, []string{"Cache-Control"}, []string{"Cache-Control"}},
		{"the standard hop-by-hop headers without Connection", nil, []string{"Keep-Alive", "Proxy-Authenticate", "Proxy-Connection", "Upgrade", "Alt-Svc"}, []string{"Keep-Alive", "Proxy-Authenticate", "Proxy-Connection", "Upgrade", "Alt-Svc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Connection"] = tc.connection
				for _, k := range append(tc.sent, "X-Kept") {
					w.Header().Set(k, "1")
				}
				hello(w, r)
			})
			e := publicEnv(t, up, envOptions{})
			r := e.do("GET", "https://example.com/", contract.Request{})
			if r.status != 200 || string(r.body) != "hello" {
				t.Fatalf("got %d %q %q, want 200 hello", r.status, r.refusal, r.body)
			}
			for _, k := range append(tc.gone, "Connection") {
				if v, ok := r.header[http.CanonicalHeaderKey(k)]; ok {
					t.Errorf("%s reached the front: %q", k, v)
				}
			}
			if r.header.Get("X-Kept") != "1" {
				t.Errorf("X-Kept, named by no Connection header, was dropped: %v", r.header)
			}
		})
	}
}

// TestConnectionNamesAreReadPerResponse: each response's own Connection
// header decides, read past an interim 103 response and afresh on a
// pooled connection, and a later connection starts clean.
func TestConnectionNamesAreReadPerResponse(t *testing.T) {
	up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Secret-Hop", "1")
		switch r.URL.Path {
		case "/interim":
			w.Header().Set("Link", "</a.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
			w.Header().Set("Connection", "close, X-Secret-Hop")
		case "/close":
			w.Header().Set("Connection", "close, X-Secret-Hop")
		}
		hello(w, r)
	})
	e := publicEnv(t, up, envOptions{})
	for _, tc := range []struct {
		path  string
		kept  bool // X-Secret-Hop reaches the front
		dials int  // connections dialled so far
	}{
		{"/plain", true, 1},
		{"/interim", false, 1},
		{"/plain", true, 2},
		{"/close", false, 2},
		{"/plain", true, 3},
	} {
		r := e.do("GET", "https://example.com"+tc.path, contract.Request{})
		if r.status != 200 || string(r.body) != "hello" {
			t.Fatalf("%s: got %d %q %q, want 200 hello", tc.path, r.status, r.refusal, r.body)
		}
		if kept := r.header.Get("X-Secret-Hop") == "1"; kept != tc.kept {
			t.Errorf("%s: X-Secret-Hop forwarded %v, want %v", tc.path, kept, tc.kept)
		}
		if got := len(e.dials()); got != tc.dials {
			t.Errorf("%s: %d connections dialled, want %d", tc.path, got, tc.dials)
		}
	}
}

func TestARedirectIsReturnedAsItCame(t *testing.T) {
	e := publicEnv(t, http.RedirectHandler("https://elsewhere.test/x", http.StatusFound), envOptions{})
	r := e.do("GET", "https://example.com/", contract.Request{})
	if r.status != 302 || r.header.Get("Location") != "https://elsewhere.test/x" || r.refusal != "" {
		t.Fatalf("got %d %q Location %q, want the 302 itself", r.status, r.refusal, r.header.Get("Location"))
	}
	if d := e.dials(); len(d) != 1 {
		t.Fatalf("dialled %v, want only the first host", d)
	}
}

func TestOneDecisionLinePerRequestWithoutPathOrQuery(t *testing.T) {
	e := publicEnv(t, http.HandlerFunc(hello), envOptions{})
	e.do("GET", "https://example.com/secret-path?q=secret-query", contract.Request{})
	e.do("GET", "https://127.0.0.1/secret-path?q=secret-query", contract.Request{})
	e.dns.Set(t, "lo.test. 60 IN A 127.0.0.1")
	e.do("GET", "https://lo.test/secret-path", contract.Request{})
	lines := e.logLines()
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	want := []map[string]any{
		{"event": "egress", "profile": "agent", "decision": "allow", "host": "example.com", "status": 200.0, "bytes": 5.0, "end": "complete"},
		{"event": "egress", "profile": "agent", "decision": "refuse", "reason": "address", "range": "loopback"},
		{"event": "egress", "profile": "agent", "decision": "refuse", "reason": "network", "range": "loopback"},
	}
	for i, line := range lines {
		if strings.Contains(line, "secret") || strings.Contains(line, "lo.test") || strings.Contains(line, "127.0.0.1") {
			t.Errorf("line %d leaks a path, query, refused name or address: %s", i, line)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d is not JSON: %v", i, err)
		}
		for k, v := range want[i] {
			if got[k] != v {
				t.Errorf("line %d: %s = %v, want %v (%s)", i, k, got[k], v, line)
			}
		}
		if _, ok := got["latency_ms"]; !ok {
			t.Errorf("line %d has no latency_ms", i)
		}
	}
}
