package config

import (
	"crypto/x509"
	"fmt"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/shared/egressfile"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// maxLanguages is the most search languages a configuration may offer.
const maxLanguages = 16

// problems collects the FieldErrors of a configuration.
type problems []error

// add records a problem of field.
func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)})
}

// build turns the decoded file into a Config. order is the engines' order
// in the file; ids missing from it follow, sorted.
func build(f file, order []string, env func(string) string) (Config, []error) {
	var p problems
	c := Config{
		Service: p.service(f.Service, env),
		Search:  p.search(f.Search),
		Fetch:   p.fetch(f.Fetch),
		Egress:  p.egress(f.Egress),
		Privacy: Privacy{SecretDetection: p.secretMode(f.Privacy.SecretDetection)},
	}
	if m := f.Telemetry.MetricsListen; m != "" {
		// Any address, as the egress's: the counters carry no query, URL or
		// secret; off loopback (a pod scraped by Prometheus) it is the
		// operator's explicit choice.
		if _, err := netip.ParseAddrPort(m); err != nil {
			p.add("telemetry.metrics_listen", "want an ip:port such as 127.0.0.1:9465 or 0.0.0.0:9465")
		}
		c.MetricsListen = m
	}
	var err error
	if c.LogLevel, err = egressfile.ParseLevel(f.Logging.Level); err != nil {
		p.add("logging.level", "%v", err)
	}
	c.Cache = Cache{Enabled: f.Cache.Enabled, TTL: time.Duration(f.Cache.TTLS) * time.Second}
	if f.Cache.TTLS < 1 || time.Duration(f.Cache.TTLS)*time.Second > MaxCacheTTL {
		p.add("cache.ttl_s", "want 1 to %d, got %d", int64(MaxCacheTTL/time.Second), f.Cache.TTLS)
	}
	c.SharedState = p.sharedState(f.SharedState, env)
	c.Scraping = f.Scraping.Enabled
	c.Engines = p.engines(f.Engines, order, env)
	for _, e := range c.Engines {
		if t, _ := drivers.Lookup(e.Type); t.Scraping && !c.Scraping {
			p.add("engines."+e.ID+".type", "%s is a scraping driver: it is refused unless [scraping] enabled = true", e.Type)
		}
	}
	return c, p
}

// search checks [search] and returns it.
func (p *problems) search(f searchFile) Search {
	s := Search{
		Languages:           p.languages(f.Languages),
		Region:              f.Region,
		SafeSearch:          SafeSearch(f.SafeSearch),
		MaxResults:          f.MaxResults,
		Deadline:            time.Duration(f.DeadlineMS) * time.Millisecond,
		DropInstructionLike: f.DropInstructionLike,
	}
	if f.Region != "" && !isRegion(f.Region) {
		p.add("search.region", `want two upper-case letters ("US"), got %q`, f.Region)
	}
	switch s.SafeSearch {
	case SafeSearchOff, SafeSearchModerate, SafeSearchStrict:
	default:
		p.add("search.safe_search", "want off, moderate or strict, got %q", f.SafeSearch)
	}
	p.inRange("search.max_results", f.MaxResults, 1, limits.S2MaxResultsMax)
	p.deadline(f.DeadlineMS)
	return s
}

// deadline checks search.deadline_ms: within LIM-S4's range and leaving
// LIM-S5 + LIM-S6.
func (p *problems) deadline(ms int64) {
	ceil := limits.S4SearchDeadlineCeil.Milliseconds()
	need := (limits.S5EngineTimeout + limits.S6ReservedAfter).Milliseconds()
	switch {
	case ms < 1 || ms > ceil:
		p.add("search.deadline_ms", "want 1 to %d, got %d", ceil, ms)
	case ms < need:
		p.add("search.deadline_ms", "must leave the per-engine timeout (LIM-S5, %d ms) plus the time reserved after the engines (LIM-S6, %d ms): want at least %d, got %d",
			limits.S5EngineTimeout.Milliseconds(), limits.S6ReservedAfter.Milliseconds(), need, ms)
	}
}

// languages checks search.languages and returns a copy.
func (p *problems) languages(langs []string) []string {
	switch {
	case len(langs) == 0:
		p.add("search.languages", "want at least one language")
	case len(langs) > maxLanguages:
		p.add("search.languages", "want at most %d languages, got %d", maxLanguages, len(langs))
	}
	for i, l := range langs {
		field := fmt.Sprintf("search.languages[%d]", i)
		switch {
		case !isLanguage(l):
			p.add(field, `want a lower-case language code ("en", "pt-br", "zh-hant"), got %q`, l)
		case slices.Index(langs, l) < i:
			p.add(field, "%q is listed twice", l)
		}
	}
	return slices.Clone(langs)
}

// fetch checks [fetch] and returns it; max_chars is judged against the
// ceiling when that is valid, else against LIM-F2's config ceiling.
func (p *problems) fetch(f fetchFile) Fetch {
	ceilOK := p.inRange("fetch.max_chars_ceiling", f.MaxCharsCeiling, MinMaxChars, limits.F2MaxCharsConfig)
	ceil := limits.F2MaxCharsConfig
	if ceilOK {
		ceil = f.MaxCharsCeiling
	}
	p.inRange("fetch.max_chars", f.MaxChars, MinMaxChars, ceil)
	return Fetch(f)
}

// egress checks [egress] and returns it, the rules parsed.
func (p *problems) egress(f egressFile) Egress {
	e := Egress{Socket: f.Socket, AllowHTTP: f.AllowHTTP, CAFile: f.CAFile}
	if f.Socket != "" && !filepath.IsAbs(f.Socket) {
		p.add("egress.socket", "want an absolute path, got %q", f.Socket)
	}
	for i, s := range f.DNSServers {
		ap, err := egressfile.ParseDNSServer(s)
		if err != nil {
			p.add(fmt.Sprintf("egress.dns_servers[%d]", i), "%v", err)
			continue
		}
		e.DNSServers = append(e.DNSServers, ap)
	}
	e.Allow = p.rules("egress.allow", f.Allow)
	e.Deny = p.rules("egress.deny", f.Deny)
	if f.CAFile != "" {
		if err := checkPEM(f.CAFile); err != nil {
			p.add("egress.ca_file", "%v", err)
		}
	}
	return e
}

// rules parses the allow or deny rules of the list field, each entry on
// its own so that every bad one is named; nil when there are none.
func (p *problems) rules(field string, raw []string) policy.Rules {
	rs, errs := egressfile.ParseRules(field, raw)
	*p = append(*p, errs...)
	return rs
}

// maxCAFileBytes is the largest ca_file read.
const maxCAFileBytes = 4 << 20

// checkPEM reports an error unless path holds a PEM certificate.
func checkPEM(path string) error {
	data, err := readSmallFile(path, maxCAFileBytes)
	if err != nil {
		return err
	}
	if !x509.NewCertPool().AppendCertsFromPEM(data) {
		return fmt.Errorf("no PEM certificate in %s", path)
	}
	return nil
}

// secretMode checks privacy.secret_detection.
func (p *problems) secretMode(s string) SecretMode {
	m := SecretMode(s)
	switch m {
	case SecretRefuse, SecretWarn, SecretMask, SecretOff:
	default:
		p.add("privacy.secret_detection", "want refuse, warn, mask or off, got %q", s)
	}
	return m
}

// inRange reports whether lo <= n <= hi, adding a problem for field when
// not.
func (p *problems) inRange(field string, n, lo, hi int) bool {
	if n < lo || n > hi {
		p.add(field, "want %d to %d, got %d", lo, hi, n)
		return false
	}
	return true
}

// isLanguage reports whether s is a language code: two or three
// lower-case letters, then optionally "-" and a region or script (two
// letters, three digits or four letters, lower-case).
func isLanguage(s string) bool {
	primary, sub, hasSub := strings.Cut(s, "-")
	if len(primary) < 2 || len(primary) > 3 || !all(primary, isLower) {
		return false
	}
	if !hasSub {
		return true
	}
	switch len(sub) {
	case 2, 4:
		return all(sub, isLower)
	case 3:
		return all(sub, isDigit)
	}
	return false
}

// isRegion reports whether s is two upper-case ASCII letters.
func isRegion(s string) bool {
	return len(s) == 2 && all(s, func(c byte) bool { return 'A' <= c && c <= 'Z' })
}

// isEnvName reports whether s is an environment variable name:
// [A-Z_][A-Z0-9_]*.
func isEnvName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	return all(s, func(c byte) bool { return 'A' <= c && c <= 'Z' || isDigit(c) || c == '_' })
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// all reports whether every byte of s satisfies ok.
func all(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// validContact reports whether s fits in the User-Agent's comment.
func validContact(s string) bool {
	if len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '(' || c == ')' || c == ';' {
			return false
		}
	}
	return true
}
