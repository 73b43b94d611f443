// Package contract is the fixed, versioned interface between rypsok (the
// front) and rypsok-egress: how a request names its profile, engine,
// deadline and byte limit; how the egress answers a refusal; and how it
// signals the end of a streamed body. Both binaries import it, and
// docs/egress-contract.md describes it for people. It holds vocabulary and
// wire encoding only, no policy.
package contract

// Version is the contract version. A request that names another version is
// refused with ReasonContract; every egress answer carries it.
const Version = 1
