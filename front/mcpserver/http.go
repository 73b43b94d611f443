package mcpserver

import (
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/shared/limits"
)

// LegacySessionIdle is how long a session of a handshake-based revision
// may stay without a request before it is closed, so that abandoned
// sessions do not hold LIM-H6's places.
const LegacySessionIdle = 5 * time.Minute

// HTTPServer holds the two MCP handlers of the Streamable HTTP transport
// at the pinned SDK (docs/design/decisions.md, the HTTP listener at the
// pinned SDK): a stateless one for 2026-07-28
// and later, and a stateful one for the handshake-based revisions, whose
// sessions it counts for LIM-H6.
type HTTPServer struct {
	modern, legacy *mcp.StreamableHTTPHandler
	legacySrv      *mcp.Server
}

// NewHTTP returns the handlers of o (they satisfy gate.MCP); Options.Caller
// is the caller when a request carries no gate.CallerHeader.
func NewHTTP(o Options) *HTTPServer {
	modern := New(o)
	legacy := New(o)
	return &HTTPServer{
		modern: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return modern }, &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			PropagateRequestCancellation: true, // a closed response stream cancels the call
			DisableLocalhostProtection:   true, // the gate checks Host against the configured names
			MaxRequestBodyBytes:          limits.H2BodyBytes,
		}),
		legacy: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return legacy }, &mcp.StreamableHTTPOptions{
			SessionTimeout:             LegacySessionIdle,
			DisableLocalhostProtection: true,
			MaxRequestBodyBytes:        limits.H2BodyBytes,
		}),
		legacySrv: legacy,
	}
}

// Modern serves requests of gate.ModernRevision and later.
func (h *HTTPServer) Modern() http.Handler { return h.modern }

// Legacy serves the handshake-based revisions.
func (h *HTTPServer) Legacy() http.Handler { return h.legacy }

// LegacySessionIDs reports the IDs of the Legacy handler's open sessions.
func (h *HTTPServer) LegacySessionIDs() map[string]bool {
	ids := map[string]bool{}
	for s := range h.legacySrv.Sessions() {
		ids[s.ID()] = true
	}
	return ids
}

// Close closes every session of the Legacy handler (at shutdown, once the
// calls in flight have been answered).
func (h *HTTPServer) Close() {
	for s := range h.legacySrv.Sessions() {
		s.Close()
	}
}
