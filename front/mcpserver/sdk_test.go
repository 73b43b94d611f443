package mcpserver

import (
	"testing"
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
