// Package limits holds every bound rypsok names LIM-xx, in one table.
//
// Code and tests read a bound from here instead of repeating its number;
// docs/limits.md prints the same table (see TestDocsPrintTable). A value
// marked config is the default of a configuration key, which may lower it and
// raise it only up to its ceiling.
package limits

import (
	"slices"
	"time"
)

// Search (web_search and engine_status).
const (
	S1QueryMaxChars      = 400                     // LIM-S1: query length after trimming, 1 to this
	S2MaxResultsDefault  = 5                       // LIM-S2: max_results default (config search.max_results)
	S2MaxResultsMax      = 20                      // LIM-S2: max_results range 1 to this
	S3ResultsPerEngine   = 10                      // LIM-S3: results asked of each engine
	S4SearchDeadline     = 2500 * time.Millisecond // LIM-S4: overall search deadline (config search.deadline_ms)
	S4SearchDeadlineCeil = 10 * time.Second        // LIM-S4: ceiling of search.deadline_ms
	S5EngineTimeout      = 2000 * time.Millisecond // LIM-S5: per-engine timeout
	S6ReservedAfter      = 300 * time.Millisecond  // LIM-S6: reserved after the engines for merge, rank, clean
	S7SearchCallMax      = S4SearchDeadline + 500*time.Millisecond
	S8EnginesPerCall     = 5   // LIM-S8: engines queried in one call
	S9SnippetChars       = 400 // LIM-S9: snippet length
	S10TitleChars        = 200 // LIM-S10: title length
	S11LatencyWindow     = 20  // LIM-S11: completed requests in the latency median
	S13StatusCallMax     = 100 * time.Millisecond
	// LIM-S14: the time an engine's request keeps after a wait for its
	// pacing or concurrency slot: its latency median, at least the
	// floor; the default before it has one.
	S14PacedRequestFloor   = 250 * time.Millisecond
	S14PacedRequestDefault = 500 * time.Millisecond
)

// Fetch (web_fetch) and the agent-directed egress profile.
const (
	F1MaxCharsDefault  = 3000             // LIM-F1: max_chars default (config fetch.max_chars)
	F2MaxCharsCeiling  = 20000            // LIM-F2: max_chars ceiling (config fetch.max_chars_ceiling)
	F2MaxCharsConfig   = 100000           // LIM-F2: highest value fetch.max_chars_ceiling may take
	F3BodyBytes        = 5 << 20          // LIM-F3: response body limit, while streaming, after decompression
	F4ResponseTime     = 8 * time.Second  // LIM-F4: total time for one fetched response
	F5FetchCallMax     = 15 * time.Second // LIM-F5: maximum duration of one web_fetch call
	F6ConnectTimeout   = 3 * time.Second  // LIM-F6: connect timeout (TCP + TLS handshake)
	F7SameHostRedirect = 5                // LIM-F7: same-host redirects followed
	F8PortHTTPS        = 443              // LIM-F8: port of agent-directed requests
	F8PortHTTP         = 80               // LIM-F8: port added where http is allowed
	F9URLChars         = 2048             // LIM-F9: URL length
)

// Fetch: reading a PDF document (front/pdf). A PDF is hostile input, and
// its reader is bounded from outside: see front/pdf's package comment.
const (
	F10PDFPages         = 500             // LIM-F10: pages read of one PDF
	F11PDFInflatedBytes = 64 << 20        // LIM-F11: bytes decompressed for one PDF, in all
	F11PDFStreamBytes   = 2 << 20         // LIM-F11: bytes one of its streams may decompress to
	F12PDFObjects       = 100000          // LIM-F12: objects of one PDF (and highest object number)
	F13PDFTime          = 5 * time.Second // LIM-F13: time to read one PDF, within LIM-F5
)

// Calls (per process; per caller in HTTP mode).
const (
	C6CallsPerMinute = 120 // LIM-C6
	C7CallsInFlight  = 16  // LIM-C7
	C8FetchInFlight  = 4   // LIM-C8
)

// Tool definitions.
const (
	I1DefinitionChars = 4096 // LIM-I1: instructions + tools/list, serialized JSON
	I2ToolDescChars   = 300  // LIM-I2
	I3ParamDescChars  = 160  // LIM-I3
	I4MessageChars    = 200  // LIM-I4: an error message
)

// HTTP listener.
const (
	H1Connections    = 256              // LIM-H1: open HTTP connections
	H2BodyBytes      = 1 << 20          // LIM-H2: request body
	H3ProtocolWait   = 5 * time.Second  // LIM-H3: time to show HTTP/1 or HTTP/2
	H4StreamLifetime = 60 * time.Second // LIM-H4: lifetime of one response stream
	H5RequestTime    = 30 * time.Second // LIM-H5: time for one whole request
	H6LegacySessions = 64               // LIM-H6: open sessions of handshake-based revisions
	H7HeaderBytes    = 16 << 10         // LIM-H7: request line and headers
)

// Cache.
const (
	K2CacheTTL        = 900 * time.Second // LIM-K2 (config cache.ttl_s)
	K3CacheEntries    = 1000              // LIM-K3
	K4CacheEntryBytes = 256 << 10         // LIM-K4
)

// Shared state ([shared_state], several replicas).
const (
	R1SharedStateCall  = 100 * time.Millisecond // LIM-R1: deadline of one Redis command
	R2SharedStateProbe = 1 * time.Second        // LIM-R2: interval of the probe of a Redis found down
)

// Privacy and logging defaults.
const (
	P1SecretDetection = "refuse" // LIM-P1 (config privacy.secret_detection)
	P2LogLevel        = "info"   // LIM-P2 (config logging.level)
)

// rypsok-egress.
const (
	E1DNSQueryWait   = 2 * time.Second   // LIM-E1: DNS answer wait, per query
	E2DNSCacheSize   = 4096              // LIM-E2: cached DNS answers
	E2DNSCacheTTLMax = 300 * time.Second // LIM-E2: TTL cap of a cached answer
	E3UpstreamConns  = 256               // LIM-E3: concurrent upstream connections
)

// Limit is one row of the table: its name, what it bounds, and its value as
// docs/limits.md writes it.
type Limit struct {
	Name    string
	Meaning string
	Value   string
}

// Table lists the limits in the order of docs/limits.md, for
// documentation and for the test that keeps that page in step with this
// file; the slice is the caller's.
func Table() []Limit { return slices.Clone(table) }

// table is what Table returns, unexported so that no package can change
// the documented limits at run time.
var table = []Limit{
	{"LIM-S1", "`query` length after trimming (characters)", "1 to 400"},
	{"LIM-S2", "`max_results`: default and range", "default 5, range 1 to 20"},
	{"LIM-S3", "results asked of each engine", "10"},
	{"LIM-S4", "overall search deadline", "2,500 ms (ceiling 10,000)"},
	{"LIM-S5", "per-engine timeout", "2,000 ms"},
	{"LIM-S6", "time reserved after the engines for merge, rank, clean", "300 ms"},
	{"LIM-S7", "maximum duration of one `web_search` call", "S4 + 500 ms"},
	{"LIM-S8", "engines queried in one call", "5"},
	{"LIM-S9", "snippet length (characters)", "400"},
	{"LIM-S10", "title length (characters)", "200"},
	{"LIM-S11", "completed requests in the latency median of `engine_status`", "20"},
	{"LIM-S13", "maximum duration of one `engine_status` call", "100 ms"},
	{"LIM-S14", "time an engine's request keeps after waiting for its provider's pace", "its latency median, at least 250 ms; 500 ms without one"},
	{"LIM-F1", "`max_chars` default", "3,000"},
	{"LIM-F2", "`max_chars` ceiling", "20,000 (config ceiling 100,000)"},
	{"LIM-F3", "response body limit, while streaming, after decompression", "5 MiB"},
	{"LIM-F4", "total time for one fetched response (headers and body)", "8 s"},
	{"LIM-F5", "maximum duration of one `web_fetch` call", "15 s"},
	{"LIM-F6", "connect timeout (TCP + TLS handshake)", "3 s"},
	{"LIM-F7", "same-host redirects followed", "5"},
	{"LIM-F8", "ports of agent-directed requests", "443, and 80 where http is allowed"},
	{"LIM-F9", "URL length (characters)", "2,048"},
	{"LIM-F10", "pages read of one PDF document", "500"},
	{"LIM-F11", "bytes decompressed for one PDF: in all, and from one stream", "64 MiB; 2 MiB"},
	{"LIM-F12", "objects of one PDF (and the highest object number)", "100,000"},
	{"LIM-F13", "time to read one PDF, within LIM-F5", "5 s"},
	{"LIM-C6", "tool calls per minute", "120"},
	{"LIM-C7", "tool calls in flight at once", "16"},
	{"LIM-C8", "`web_fetch` calls in flight at once", "4"},
	{"LIM-I1", "server instructions + the whole `tools/list` result (characters)", "4,096"},
	{"LIM-I2", "one tool description (characters)", "300"},
	{"LIM-I3", "one parameter description (characters)", "160"},
	{"LIM-I4", "an error `message` (characters)", "200"},
	{"LIM-H1", "open HTTP connections", "256"},
	{"LIM-H2", "request body (bytes)", "1 MiB"},
	{"LIM-H3", "time for a new connection to show HTTP/1 or HTTP/2", "5 s"},
	{"LIM-H4", "lifetime of one response stream (SSE)", "60 s"},
	{"LIM-H5", "time for one whole request to arrive", "30 s"},
	{"LIM-H6", "open sessions of handshake-based revisions", "64"},
	{"LIM-H7", "request line and headers", "16 KiB"},
	{"LIM-K2", "cache entry lifetime", "900 s"},
	{"LIM-K3", "cache entries", "1,000"},
	{"LIM-K4", "one cache entry (bytes)", "256 KiB"},
	{"LIM-R1", "shared state: deadline of one Redis command", "100 ms"},
	{"LIM-R2", "shared state: interval of the probe of a Redis found down", "1 s"},
	{"LIM-P1", "secret detection default", "refuse"},
	{"LIM-P2", "log level default", "info"},
	{"LIM-E1", "egress: DNS answer wait, per query", "2 s"},
	{"LIM-E2", "egress: cached DNS answers (TTL honored, capped at 300 s)", "4,096"},
	{"LIM-E3", "egress: concurrent upstream connections", "256"},
}
