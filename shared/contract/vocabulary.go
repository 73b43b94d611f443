package contract

import "slices"

// Profile names the egress profile a request is judged by.
type Profile string

const (
	// ProfileAgent is the agent-directed profile (web_fetch and its
	// robots.txt reads): the strictest one, and the one a request that
	// names no profile gets.
	ProfileAgent Profile = "agent"
	// ProfileEngine is the engine profile: the request names its engine,
	// and only that engine's configured endpoints are reachable.
	ProfileEngine Profile = "engine"
)

// Profiles lists every profile; the slice is the caller's.
func Profiles() []Profile { return slices.Clone(profiles) }

// profiles is what Profiles returns. The closed lists of this file are
// unexported so that no package can change the contract's vocabulary at
// run time; their accessors return copies.
var profiles = []Profile{ProfileAgent, ProfileEngine}

// Valid reports whether p is one of Profiles.
func (p Profile) Valid() bool { return p == ProfileAgent || p == ProfileEngine }

// Reason is why the egress refused a request or could not complete it. It
// is a closed vocabulary: the egress answers, logs and counts only these.
type Reason string

const (
	// ReasonAddress: an address literal in the URL is in a refused range.
	ReasonAddress Reason = "address"
	// ReasonDenyRule: the host or address matches an operator deny rule.
	ReasonDenyRule Reason = "deny_rule"
	// ReasonScheme: the scheme is not allowed for the profile.
	ReasonScheme Reason = "scheme"
	// ReasonPort: the port is not allowed for the profile.
	ReasonPort Reason = "port"
	// ReasonMethod: the method is not allowed (CONNECT included), or a
	// body was sent where none is allowed.
	ReasonMethod Reason = "method"
	// ReasonUserinfo: the URL carries a user name or password.
	ReasonUserinfo Reason = "userinfo"
	// ReasonHeader: a request header the profile does not allow.
	ReasonHeader Reason = "header"
	// ReasonHost: the host is not a well-formed name or address.
	ReasonHost Reason = "host"
	// ReasonEngine: the engine is unknown to the egress, or the URL is not
	// one of its endpoints.
	ReasonEngine Reason = "engine"
	// ReasonContract: the request does not follow this contract (not in
	// absolute form, bad contract header, other version).
	ReasonContract Reason = "contract"
	// ReasonNetwork: the name does not resolve, every address it resolves
	// to is refused, or the connection failed. Deliberately one answer for
	// all three, so a caller cannot probe which addresses are refused.
	ReasonNetwork Reason = "network"
	// ReasonTimeout: the connect timeout or the request deadline passed.
	ReasonTimeout Reason = "timeout"
	// ReasonTooLarge: the body exceeds the byte limit (only as an End).
	ReasonTooLarge Reason = "too_large"
)

// Reasons lists every reason, in a fixed order, for documentation and
// counters; the slice is the caller's.
func Reasons() []Reason { return slices.Clone(reasons) }

// reasons is what Reasons returns.
var reasons = []Reason{
	ReasonAddress, ReasonDenyRule, ReasonScheme, ReasonPort, ReasonMethod,
	ReasonUserinfo, ReasonHeader, ReasonHost, ReasonEngine, ReasonContract,
	ReasonNetwork, ReasonTimeout, ReasonTooLarge,
}

// Valid reports whether r is one of Reasons.
func (r Reason) Valid() bool { return slices.Contains(reasons, r) }

// Policy reports whether r is a policy refusal (the front answers denied),
// as opposed to a failure (network, timeout) or a contract error.
func (r Reason) Policy() bool {
	switch r {
	case ReasonAddress, ReasonDenyRule, ReasonScheme, ReasonPort, ReasonMethod,
		ReasonUserinfo, ReasonHeader, ReasonHost, ReasonEngine:
		return true
	}
	return false
}

// End says how a streamed body ended. It travels as the trailer EndTrailer.
type End string

const (
	// EndComplete: the whole body was delivered.
	EndComplete End = "complete"
	// EndTooLarge: the body exceeded the byte limit; what was delivered is
	// a prefix.
	EndTooLarge End = End(ReasonTooLarge)
	// EndTimeout: the deadline passed while the body streamed.
	EndTimeout End = End(ReasonTimeout)
	// EndNetwork: the upstream connection failed mid-body.
	EndNetwork End = End(ReasonNetwork)
)

// Ends lists every End; the slice is the caller's.
func Ends() []End { return slices.Clone(ends) }

// ends is what Ends returns.
var ends = []End{EndComplete, EndTooLarge, EndTimeout, EndNetwork}

// Valid reports whether e is one of Ends.
func (e End) Valid() bool { return slices.Contains(ends, e) }
