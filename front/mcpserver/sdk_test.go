package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests of this file drive the SDK's own stdio server (mcp.IOTransport
// without ServeStdio's screen, ledger and end-of-input gate) and assert a
// behaviour of go-sdk v1.8.0 that ServeStdio works around. Each fails once
// the SDK changes that behaviour, and says which workaround can go.

// TestTheSDKAnswersACallBeforeInitializeWithoutACode pins go-sdk v1.8.0:
// over stdio, a call other than ping before initialize is refused with an
// error whose code is 0, which JSON-RPC does not define, so a client
// cannot tell it from any other failure. stdioConn answers such a call
// itself with -32600 (see early). When this test fails, the SDK gives a
// code of its own: if it is a proper one, delete stdioConn's early and
// this test.
func TestTheSDKAnswersACallBeforeInitializeWithoutACode(t *testing.T) {
	s := connectSDKStdio(t, New(stdioOptions()))
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	a := s.out.await(t, "1")
	if a.Error == nil {
		t.Fatalf("tools/list before initialize was served: %+v", a)
	}
	if a.Error.Code != 0 {
		t.Fatalf("the SDK now answers tools/list before initialize with code %d (%q): delete stdioConn's early", a.Error.Code, a.Error.Message)
	}
	s.end(t, "the session did not end at end of input")
}

// TestTheSDKDropsTheAnswersOfCallsInFlightAtEndOfInput pins go-sdk
// v1.8.0: when its stdio input ends, the SDK cancels the calls in flight
// and refuses to write their answers, so a host that writes its requests
// and closes its end (a pipeline, `rypsok serve < requests`) loses every
// answer not yet written. ServeStdio holds the end of input back until
// every request read is answered: the ledger (ledger.go) and the
// end-of-input gate (eofGate in stdio.go). When this test fails, the SDK
// answers the requests it read before the end of input: delete the
// ledger, the eofGate and this test.
func TestTheSDKDropsTheAnswersOfCallsInFlightAtEndOfInput(t *testing.T) {
	started := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "pin", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: &jsonschema.Schema{Type: "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-ctx.Done() // in flight until the SDK cancels it
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	s := connectSDKStdio(t, srv)
	s.send(t, stdioInit)
	s.out.await(t, "1")
	s.send(t, stdioInitialized, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	select {
	case <-started:
	case <-time.After(bound):
		t.Fatal("the call never started")
	}
	s.end(t, "the SDK no longer cancels the calls in flight at end of input: check whether it answers them now, and if so delete the ledger and the eofGate")
	if a, ok := s.out.get("2"); ok {
		t.Fatalf("the SDK answered a call in flight at end of input (%+v): delete the ledger and the eofGate", a)
	}
}
