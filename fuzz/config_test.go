package fuzz

import (
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	egressconfig "github.com/rypsok/rypsok/egress/config"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// configCredential is the value of every credential variable of the fuzz
// environment: it must never be printed.
const configCredential = "fuzz-credential-3b8e1f0a"

const configSocket = "/run/rypsok-fuzz/egress.sock"

func configEnv(name string) string {
	switch name {
	case "BRAVE_API_KEY", "K", "KEY", "API_KEY", "SEARXNG_KEY", "STACKEXCHANGE_KEY", "TOKEN":
		return configCredential
	}
	return ""
}

// FuzzConfig is the configuration, rypsok's and rypsok-egress's, on any
// file content.
//
//   - config.Parse never panics, is deterministic, and neither its error
//     nor the configuration it accepts prints a credential; an accepted
//     configuration keeps its bounds (LIM-S2, S4 to S6, F1, F2, K2) and
//     names engines by valid ids.
//   - The EgressTOML of an accepted configuration is accepted by the
//     egress's own parser (egress/config) with the same policy: socket,
//     DNS servers, http, allow and deny rules, and an endpoint for every
//     engine it lists.
//   - egress/config.Parse never panics; a configuration it accepts has
//     rules that round-trip, valid engine ids with http(s) endpoints, DNS
//     servers as ip:port and a known log level.
func FuzzConfig(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		defer watchdog(t, "FuzzConfig")()
		checkFrontConfig(t, data)
		checkEgressConfig(t, data)
	})
}

func checkFrontConfig(t *testing.T, data []byte) {
	t.Helper()
	c, err := config.Parse(data, configEnv)
	if err != nil {
		if strings.Contains(err.Error(), configCredential) {
			t.Fatalf("the error prints the credential: %v", err)
		}
		return
	}
	if again, err := config.Parse(data, configEnv); err != nil || !reflect.DeepEqual(again, c) {
		t.Fatalf("Parse is not deterministic: %v", err)
	}
	if s := fmt.Sprintf("%+v %#v", c, c); strings.Contains(s, configCredential) {
		t.Fatalf("the configuration prints the credential")
	}
	s, fe := c.Search, c.Fetch
	switch {
	case s.MaxResults < 1 || s.MaxResults > limits.S2MaxResultsMax:
		t.Fatalf("search.max_results %d", s.MaxResults)
	case s.Deadline > limits.S4SearchDeadlineCeil || s.Deadline < limits.S5EngineTimeout+limits.S6ReservedAfter:
		t.Fatalf("search.deadline %v", s.Deadline)
	case len(s.Languages) == 0:
		t.Fatalf("no search language")
	case fe.MaxChars < config.MinMaxChars || fe.MaxChars > fe.MaxCharsCeiling || fe.MaxCharsCeiling > limits.F2MaxCharsConfig:
		t.Fatalf("fetch.max_chars %d, ceiling %d", fe.MaxChars, fe.MaxCharsCeiling)
	case c.Cache.TTL < 0 || c.Cache.TTL > config.MaxCacheTTL:
		t.Fatalf("cache.ttl %v", c.Cache.TTL)
	}
	for _, e := range c.Engines {
		if !contract.ValidEngineID(e.ID) {
			t.Fatalf("engine id %q", e.ID)
		}
		if _, ok := drivers.Lookup(e.Type); !ok {
			t.Fatalf("engine %q of unknown type %q", e.ID, e.Type)
		}
		if e.Weight <= 0 || e.Weight > 10 {
			t.Fatalf("engine %q of weight %v", e.ID, e.Weight)
		}
	}

	out, err := c.EgressTOML(configSocket)
	if err != nil {
		t.Fatalf("EgressTOML: %v", err)
	}
	if again, _ := c.EgressTOML(configSocket); string(again) != string(out) {
		t.Fatalf("EgressTOML is not deterministic")
	}
	if strings.Contains(string(out), configCredential) {
		t.Fatalf("EgressTOML carries the credential:\n%s", out)
	}
	ec, err := egressconfig.Parse(out)
	if err != nil {
		t.Fatalf("the egress refuses the EgressTOML of an accepted configuration: %v\n%s\nfrom\n%s", err, out, data)
	}
	switch {
	case ec.Socket != configSocket:
		t.Fatalf("egress socket %q", ec.Socket)
	case !slices.Equal(ec.DNSServers, c.Egress.DNSServers):
		t.Fatalf("egress DNS servers %q, want %q", ec.DNSServers, c.Egress.DNSServers)
	case ec.Policy.AllowHTTP != c.Egress.AllowHTTP || !slices.Equal(ec.Policy.Allow, c.Egress.Allow) || !slices.Equal(ec.Policy.Deny, c.Egress.Deny):
		t.Fatalf("egress policy %v %v %v, want %v %v %v", ec.Policy.AllowHTTP, ec.Policy.Allow, ec.Policy.Deny, c.Egress.AllowHTTP, c.Egress.Allow, c.Egress.Deny)
	case ec.CAFile != c.Egress.CAFile:
		t.Fatalf("egress ca_file %q, want %q", ec.CAFile, c.Egress.CAFile)
	}
	for id, eps := range ec.Policy.Engines {
		if len(eps) == 0 || !slices.ContainsFunc(c.Engines, func(e config.Engine) bool { return e.ID == id }) {
			t.Fatalf("egress engine %q: %d endpoints, not configured", id, len(eps))
		}
	}
	checkEgressPolicy(t, ec)
}

func checkEgressConfig(t *testing.T, data []byte) {
	t.Helper()
	ec, err := egressconfig.Parse(data)
	if err != nil {
		return
	}
	checkEgressPolicy(t, ec)
	if ec.GID < -1 {
		t.Fatalf("gid %d", ec.GID)
	}
}

// checkEgressPolicy checks an egress configuration the egress accepted.
func checkEgressPolicy(t *testing.T, ec egressconfig.Config) {
	t.Helper()
	for _, rs := range []policy.Rules{ec.Policy.Allow, ec.Policy.Deny} {
		for _, r := range rs {
			if back, err := policy.ParseRule(r.String()); err != nil || back != r {
				t.Fatalf("rule %q does not round-trip: %v", r, err)
			}
		}
	}
	for id, eps := range ec.Policy.Engines {
		if !contract.ValidEngineID(id) {
			t.Fatalf("engine id %q", id)
		}
		for _, ep := range eps {
			if ep.Scheme != "http" && ep.Scheme != "https" || ep.Port == 0 || ep.Host.IsAddr() == (ep.Host.Name != "") {
				t.Fatalf("engine %q endpoint %+v", id, ep)
			}
		}
	}
	for _, s := range ec.DNSServers {
		if ap, err := netip.ParseAddrPort(s); err != nil || ap.Port() == 0 {
			t.Fatalf("dns server %q", s)
		}
	}
	if !slices.Contains([]zerolog.Level{zerolog.DebugLevel, zerolog.InfoLevel, zerolog.WarnLevel, zerolog.ErrorLevel}, ec.LogLevel) {
		t.Fatalf("log level %v", ec.LogLevel)
	}
	policy.New(ec.Policy)
}
