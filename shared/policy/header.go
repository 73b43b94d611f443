package policy

import (
	"net/textproto"
	"strings"

	"github.com/rypsok/rypsok/shared/contract"
)

// HeaderAction is what the proxy does with one request header.
type HeaderAction int

const (
	// HeaderKeep forwards the header.
	HeaderKeep HeaderAction = iota
	// HeaderDrop removes the header silently.
	HeaderDrop
	// HeaderRefuse refuses the request (contract.ReasonHeader).
	HeaderRefuse
)

// String returns "keep", "drop" or "refuse".
func (h HeaderAction) String() string {
	switch h {
	case HeaderKeep:
		return "keep"
	case HeaderDrop:
		return "drop"
	case HeaderRefuse:
		return "refuse"
	}
	return "unknown"
}

// CheckHeader judges one request header by its name, in any case.
//
// Hop-by-hop and framing headers the proxy sets itself (Accept-Encoding,
// Connection, Proxy-Connection, Keep-Alive, Te, Trailer,
// Transfer-Encoding, Proxy-Authorization, Content-Length) and the contract
// headers ("Rypsok-*") are dropped, for both profiles.
//
// The agent profile keeps User-Agent, Accept, Accept-Language,
// If-None-Match and If-Modified-Since, and refuses every other header.
//
// The engine profile refuses Upgrade, Cookie, Host, Forwarded, any
// "Proxy-*" and any "X-Forwarded-*", and keeps every other header (a
// driver sends its key to its one fixed destination).
//
// A name that is not an HTTP token is refused.
func (p *Policy) CheckHeader(profile contract.Profile, name string) HeaderAction {
	if !isToken(name) {
		return HeaderRefuse
	}
	name = textproto.CanonicalMIMEHeaderKey(name)
	switch {
	case dropped(name):
		return HeaderDrop
	case profile == contract.ProfileEngine:
		return engineHeader(name)
	}
	return agentHeader(name)
}

// dropped reports whether the canonical name is dropped for every profile.
func dropped(name string) bool {
	switch name {
	case "Accept-Encoding", "Connection", "Proxy-Connection", "Keep-Alive",
		"Te", "Trailer", "Transfer-Encoding", "Proxy-Authorization",
		"Content-Length":
		return true
	}
	return strings.HasPrefix(name, "Rypsok-")
}

// agentHeader judges a canonical name the agent profile sends.
func agentHeader(name string) HeaderAction {
	switch name {
	case "User-Agent", "Accept", "Accept-Language", "If-None-Match", "If-Modified-Since":
		return HeaderKeep
	}
	return HeaderRefuse
}

// engineHeader judges a canonical name an engine's driver sends.
func engineHeader(name string) HeaderAction {
	switch name {
	case "Upgrade", "Cookie", "Host", "Forwarded":
		return HeaderRefuse
	}
	if strings.HasPrefix(name, "Proxy-") || strings.HasPrefix(name, "X-Forwarded-") {
		return HeaderRefuse
	}
	return HeaderKeep
}

// isToken reports whether s is a non-empty HTTP token (RFC 9110 5.6.2),
// the syntax of a field name.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

func isTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
