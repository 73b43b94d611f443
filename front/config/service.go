package config

import (
	"crypto/sha256"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rypsok/rypsok/shared/limits"
)

// DefaultListen is where `serve --transport http` listens when
// [service] listen is not set: loopback, a fixed port.
const DefaultListen = "127.0.0.1:8765"

// MinTokenChars is the shortest bearer token accepted.
const MinTokenChars = 16

// Caller names of the HTTP transport.
const (
	// CallerDefault is the caller of [service] token_env / token_file.
	CallerDefault = "default"
	// CallerLocal is the one caller of a loopback listener without tokens.
	CallerLocal = "local"
)

// HTTP is the Streamable HTTP listener's configuration ([service]).
type HTTP struct {
	// Listen is the "host:port" bound; DefaultListen by default.
	Listen string
	// Loopback reports whether Listen is a loopback address (or
	// "localhost"); a listener elsewhere requires Tokens.
	Loopback bool
	// Tokens are the callers' bearer tokens, read at load; none on a
	// loopback listener means every request is CallerLocal's.
	Tokens []Token
	// AllowedOrigins are the Origin values admitted besides loopback
	// origins ("scheme://host[:port]", lower-cased; "*" admits any).
	AllowedOrigins []string
	// AllowedHosts are the Host values admitted besides loopback names:
	// "name" (any port) or "name:port"; "*" admits any.
	AllowedHosts []string
	// ConnectionsPerSource is the share of LIM-H1 one source address may
	// hold open.
	ConnectionsPerSource int
}

// CallerShare is the most of a process bound (LIM-C8's fetches, LIM-H6's
// sessions) one caller may hold when two or more callers are configured:
// half of it, rounded up, so that one caller cannot take all of it from
// the others. It is 0, no share of its own, with one caller or none: the
// whole bound is that caller's.
func (h HTTP) CallerShare(bound int) int {
	if len(h.Tokens) < 2 {
		return 0
	}
	return (bound + 1) / 2
}

// Token is one caller's bearer token. The token itself is kept only as its
// SHA-256 digest, so that printing a configuration shows no secret.
type Token struct {
	Caller string
	Digest [sha256.Size]byte
	// Env and File name where the token was read from (one of them is
	// set): the variable's name or the file's path, never the token.
	// Read reads it again from there.
	Env, File string
}

// String never shows the token.
func (t Token) String() string { return t.Caller + ":" + redacted }

// Read reads the token again from where it was read at load (for a
// client of the listener, such as `rypsok healthcheck`), and checks it
// against Digest: a token changed since the load is an error.
func (t Token) Read(env func(string) string) (string, error) {
	tok, problem := readToken(t.Env, t.File, env)
	switch {
	case problem != "":
		return "", fmt.Errorf("caller %s: %s", t.Caller, problem)
	case sha256.Sum256([]byte(tok)) != t.Digest:
		return "", fmt.Errorf("caller %s: the token changed since the configuration was loaded", t.Caller)
	}
	return tok, nil
}

// callerName is the form of a [service.callers.<name>] name.
var callerName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// service checks [service] and returns it.
func (p *problems) service(f serviceFile, env func(string) string) Service {
	s := Service{
		StructuredContent: f.StructuredContent,
		EngineStatus:      f.EngineStatus,
		Contact:           f.Contact,
		HTTP: HTTP{
			Listen:               f.Listen,
			AllowedOrigins:       lowerAll(f.AllowedOrigins),
			AllowedHosts:         lowerAll(f.AllowedHosts),
			ConnectionsPerSource: f.ConnectionsPerSource,
		},
	}
	if !validContact(s.Contact) {
		p.add("service.contact", "want at most 128 printable ASCII characters without ( ) or ;")
	}
	s.HTTP.Loopback = p.listen(f.Listen)
	p.inRange("service.connections_per_source", f.ConnectionsPerSource, 1, limits.H1Connections)
	for i, o := range s.HTTP.AllowedOrigins {
		if o != "*" && !validOrigin(o) {
			p.add(fmt.Sprintf("service.allowed_origins[%d]", i), `want "scheme://host[:port]" or "*", got %q`, o)
		}
	}
	for i, h := range s.HTTP.AllowedHosts {
		if h != "*" && !validHost(h) {
			p.add(fmt.Sprintf("service.allowed_hosts[%d]", i), `want "name" or "name:port" or "*", got %q`, h)
		}
	}
	s.HTTP.Tokens = p.tokens(f, env)
	if !s.HTTP.Loopback && len(s.HTTP.Tokens) == 0 {
		p.add("service.listen", "%s is not a loopback address: set service.token_env or service.token_file (or [service.callers.<name>]) so that callers must authenticate", f.Listen)
	}
	return s
}

// listen checks service.listen and reports whether it is loopback.
func (p *problems) listen(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		p.add("service.listen", `want "host:port" such as %q, got %q`, DefaultListen, hostport)
		return true
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		p.add("service.listen", "want a port 0 to 65535, got %q", port)
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	if host != "" && err != nil {
		p.add("service.listen", "want an IP address or localhost, got %q", host)
		return true
	}
	return err == nil && a.Unmap().IsLoopback()
}

// tokens reads the callers' tokens: [service] token_env / token_file as
// CallerDefault, then each [service.callers.<name>], in name order.
func (p *problems) tokens(f serviceFile, env func(string) string) []Token {
	var out []Token
	seen := map[[sha256.Size]byte]string{}
	add := func(field, caller, keyEnv, keyFile string) {
		switch {
		case keyEnv != "" && keyFile != "":
			p.add(field+".token_file", "set token_env or token_file, not both")
			return
		case keyEnv == "" && keyFile == "":
			if caller != CallerDefault {
				p.add(field, "set token_env or token_file")
			}
			return
		}
		tok, problem := readToken(keyEnv, keyFile, env)
		switch {
		case problem != "":
			p.add(field, "%s", problem)
			return
		case len([]rune(tok)) < MinTokenChars:
			p.add(field, "the token is shorter than %d characters", MinTokenChars)
			return
		}
		d := sha256.Sum256([]byte(tok))
		if other, dup := seen[d]; dup {
			p.add(field, "caller %s has the same token as caller %s", caller, other)
			return
		}
		seen[d] = caller
		out = append(out, Token{Caller: caller, Digest: d, Env: keyEnv, File: keyFile})
	}
	add("service", CallerDefault, f.TokenEnv, f.TokenFile)
	names := make([]string, 0, len(f.Callers))
	for name := range f.Callers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		field := "service.callers." + name
		if !callerName.MatchString(name) || name == CallerDefault || name == CallerLocal {
			p.add(field, "want a name of 1 to 32 lower-case letters, digits, _ or - (not %q or %q)", CallerDefault, CallerLocal)
			continue
		}
		c := f.Callers[name]
		add(field, name, c.TokenEnv, c.TokenFile)
	}
	return out
}

// readToken reads a token from the file or the variable, trimmed of
// surrounding white space; problem says why there is none.
func readToken(keyEnv, keyFile string, env func(string) string) (tok, problem string) {
	if keyFile != "" {
		data, err := readSmallFile(keyFile, maxKeyFileBytes)
		if err != nil {
			return "", fmt.Sprintf("token_file cannot be read: %v", err)
		}
		tok = strings.TrimSpace(string(data))
	} else {
		tok = strings.TrimSpace(getenv(env, keyEnv))
	}
	switch {
	case tok == "" && keyFile != "":
		return "", "token_file " + keyFile + " is empty"
	case tok == "":
		return "", "environment variable " + keyEnv + " is unset or empty"
	case strings.ContainsFunc(tok, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return "", "the token holds a space or a control character"
	}
	return tok, ""
}

func lowerAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = strings.ToLower(strings.TrimSpace(s))
	}
	return out
}

// validOrigin reports whether o is "http(s)://host[:port]" with nothing
// after it.
func validOrigin(o string) bool {
	scheme, rest, ok := strings.Cut(o, "://")
	return ok && (scheme == "http" || scheme == "https") && validHost(rest)
}

// validHost reports whether h is a host name or address, with an
// optional port, and nothing else.
func validHost(h string) bool {
	if h == "" || strings.ContainsAny(h, "/?#@ \\") {
		return false
	}
	host := h
	if hh, port, err := net.SplitHostPort(h); err == nil {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return false
		}
		host = hh
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
	}
	return len(host) <= 253
}
