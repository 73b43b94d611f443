// Package mcpserver is rypsok's MCP adapter, the only package that imports
// the MCP SDK (github.com/modelcontextprotocol/go-sdk): the tool
// definitions (docs/design: tools), the server instructions, and a handler
// per tool that hands the call to app.Services.Call and maps its answer to
// MCP (docs/design: transports and protocol: structured content plus the
// same object as JSON text; tool errors as isError results carrying the
// error object of docs/design: errors).
package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/gate"
)

// Options configure the server.
type Options struct {
	// Services answer the calls; required.
	Services *app.Services
	// Version is rypsok's version, announced at initialize.
	Version string
	// StructuredContent puts the response object in structuredContent as
	// well as in the text content, and declares each tool's output schema
	// ([service] structured_content); false sends the text alone and
	// declares no output schema.
	StructuredContent bool
	// Caller names the caller in logs ("stdio" for the stdio transport).
	Caller string
	// Answered, if set, runs once, when ServeStdio has written its first
	// answer (to initialize, or to server/discover, or to a line it
	// cannot serve).
	Answered func()
}

// New returns the MCP server of o.
func New(o Options) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "rypsok", Version: o.Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	for _, t := range Tools(o.Services, o.StructuredContent) {
		srv.AddTool(t, handler(o, t.Name))
	}
	return srv
}

func handler(o Options, tool string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		caller := o.Caller
		if req.Extra != nil && req.Extra.Header.Get(gate.CallerHeader) != "" {
			caller = req.Extra.Header.Get(gate.CallerHeader) // set by the gate alone
		}
		resp, terr, err := o.Services.Call(ctx, caller, tool, req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		if terr != nil {
			return result(terr, true, o.StructuredContent), nil
		}
		return result(resp, false, o.StructuredContent), nil
	}
}

// result is the CallToolResult of one response object: the object as JSON
// text, and as structured content unless switched off. A tool error is an
// isError result returned with a nil Go error, so that its structured
// content reaches the client.
func result(v any, isError, structured bool) *mcp.CallToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"error":{"kind":"unavailable","message":"internal error","detail":{}}}`)
		isError = true
	}
	r := &mcp.CallToolResult{IsError: isError, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
	if structured {
		r.StructuredContent = json.RawMessage(b)
	}
	return r
}
