package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/front/gate"
	"github.com/rypsok/rypsok/shared/limits"
)

// The messages of the JSON-RPC errors ServeStdio answers itself, with id
// null (JSON-RPC 2.0: the id of a request that cannot be read is null).
// They never quote the line.
const (
	msgNotJSON    = "Parse error: the line is not one JSON value"
	msgTooLong    = "Parse error: a line longer than %d bytes (LIM-H2) is not read"
	msgNotMessage = "Invalid Request: not a JSON-RPC message this server takes"
)

// msgNotInitialized is the message of the -32600 answered, with the
// request's id, to a call that comes before initialize.
const msgNotInitialized = "Invalid Request: the session is not initialized; send initialize first (only ping is served before it)"

// jsonSpace is JSON's white space (RFC 8259), the only bytes trimmed
// around a line.
const jsonSpace = " \t\r\n"

// screen passes in through one line at a time, so that a line the SDK
// cannot read never reaches it: its newline-delimited JSON decoder stops
// for good at the first line that is not one JSON value, which would end
// the session. A line that is one JSON value goes on without the white
// space around it (the decoder takes none after a value) and is noted by
// l; any other line — not JSON, empty, or longer than LIM-H2, whose rest
// is read and dropped rather than kept — is answered on out with a
// JSON-RPC parse error and goes no further. A failed read of in ends the
// stream with an inputError (a line it cut short is not judged); the end
// of in ends it with io.EOF. Closing the returned reader stops the
// screen at its next line.
func screen(in io.Reader, l *ledger, out *lineWriter) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		var buf []byte
		for {
			line, read, long, err := readLine(r, buf[:0], limits.H2BodyBytes)
			buf = line
			value := bytes.Trim(line, jsonSpace)
			switch {
			case read == 0, err != nil && err != io.EOF:
				// no line, or one cut short
			case long:
				out.refuse(jsonrpc.CodeParseError, fmt.Sprintf(msgTooLong, limits.H2BodyBytes))
			case !json.Valid(value):
				out.refuse(jsonrpc.CodeParseError, msgNotJSON)
			default:
				l.read(value)
				if _, werr := pw.Write(append(value, '\n')); werr != nil {
					return
				}
			}
			switch {
			case err == io.EOF:
				pw.Close()
				return
			case err != nil:
				pw.CloseWithError(&inputError{err: err})
				return
			}
		}
	}()
	return pr
}

// readLine reads one line from r into buf, without its newline: read
// counts its bytes, of which at most limit are kept; long reports that
// there were more (line is then empty). err is the read's error, io.EOF
// at the end of input (with a last line without newline, if any).
func readLine(r *bufio.Reader, buf []byte, limit int) (line []byte, read int, long bool, err error) {
	for {
		piece, err := r.ReadSlice('\n')
		read += len(piece)
		if err == nil {
			piece = piece[:len(piece)-1]
		}
		switch {
		case long:
		case len(buf)+len(piece) > limit:
			long, buf = true, buf[:0]
		default:
			buf = append(buf, piece...)
		}
		if err != bufio.ErrBufferFull {
			return buf, read, long, err
		}
	}
}

// inputError is a failed read of the client's input: it ends the session.
type inputError struct{ err error }

func (e *inputError) Error() string { return "reading input: " + e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// lineWriter writes whole lines to w, one writer at a time: the SDK's
// answers and ServeStdio's own never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.w.Write(p)
}

// refuse writes a JSON-RPC error with id null.
func (lw *lineWriter) refuse(code int64, message string) error {
	b, err := json.Marshal(struct {
		JSONRPC string        `json:"jsonrpc"`
		ID      any           `json:"id"`
		Error   jsonrpc.Error `json:"error"`
	}{JSONRPC: "2.0", Error: jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		return err
	}
	_, err = lw.Write(append(b, '\n'))
	return err
}

// stdioTransport is the SDK's newline-delimited transport over a screened
// input, whose connection answers a message the SDK refuses instead of
// ending on it.
type stdioTransport struct {
	in  io.Reader
	out *lineWriter
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := (&mcp.IOTransport{
		Reader: nopCloser{t.in},
		Writer: nopWriteCloser{t.out},
		// The screen bounds every line at LIM-H2 already; the SDK's own
		// bound stays as a backstop, with room for what its decoder may
		// read beyond the line in hand.
		MaxLineLength: 2 * limits.H2BodyBytes,
	}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &stdioConn{Connection: c, out: t.out}, nil
}

// stdioConn is the SDK's connection, whose Read answers -32600 with id
// null to one JSON value that is not a message the SDK takes (42, [],
// {"foo":1}, an id that is an array, a repeated id in batches) and reads
// on, where the SDK's Read returns an error that ends the session. The
// screen passes only whole JSON values, so such an error concerns that
// value alone and the SDK's reader goes on; the end of input, a failed
// read and the connection's close still end the session. A call that
// comes before initialize is answered -32600 too, with its id (see
// early).
//
// Batches: the SDK learns the negotiated revision through a method this
// wrapper does not have, so it serves a JSON-RPC batch in every revision
// rather than ending the session on one from 2025-06-18 on.
type stdioConn struct {
	mcp.Connection
	out *lineWriter
	// initialized is set once an initialize request (or a call of a
	// handshake-less revision) has been read. Only Read uses it, and the
	// SDK calls Read from one goroutine.
	initialized bool
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		var ie *inputError
		switch {
		case err == nil:
			req, ok := msg.(*jsonrpc.Request)
			if !ok || !c.early(req) {
				return msg, nil
			}
			// Written through the SDK's connection, so that the answer to
			// a call of a batch joins the batch's answer.
			refusal := &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msgNotInitialized}}
			if werr := c.Connection.Write(ctx, refusal); werr != nil {
				return nil, werr
			}
		case ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || errors.As(err, &ie):
			return msg, err
		default:
			if werr := c.out.refuse(jsonrpc.CodeInvalidRequest, msgNotMessage); werr != nil {
				return nil, werr
			}
		}
	}
}

// early reports whether req is a call that comes before the session is
// initialized, and notes the calls that initialize it. The SDK (v1.8.0)
// refuses such a call with an error of code 0, which JSON-RPC does not
// define (TestTheSDKAnswersACallBeforeInitializeWithoutACode pins it), so
// a client cannot tell it from any other failure; early lets Read answer
// -32600, Invalid Request, instead. MCP defines no code of its own for it
// (its lifecycle only says that a client sends nothing but ping before
// initialize is answered); -32002, "not initialized" in other protocols
// (LSP), is MCP's "resource not found"; -32600 is JSON-RPC's code for a
// request the server will not take as it stands, and the one the MCP
// Java SDK answers here.
//
// early lets through what the SDK serves before initialize (initialize,
// ping, logging/setLevel, resources/subscribe and unsubscribe,
// server/discover, notifications) and the calls of handshake-less
// revisions (a protocol version of gate.ModernRevision or later in their
// _meta), which initialize the session as the SDK reads them. The SDK
// handles initialize before any later request, so a call read after an
// initialize request is served; should that initialize fail, the SDK
// refuses the calls after it as before.
func (c *stdioConn) early(req *jsonrpc.Request) bool {
	if !req.IsCall() {
		return false
	}
	switch req.Method {
	case "initialize":
		c.initialized = true
		return false
	case "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "server/discover":
		return false
	}
	if handshakeLess(req.Params) {
		c.initialized = true
	}
	return !c.initialized
}

// handshakeLess reports whether params carry, in _meta, the protocol
// version of a revision without the initialize handshake.
func handshakeLess(params json.RawMessage) bool {
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	v, ok := p.Meta[mcp.MetaKeyProtocolVersion].(string)
	return ok && v >= gate.ModernRevision
}
