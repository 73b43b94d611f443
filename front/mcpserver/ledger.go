package mcpserver

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ledger counts the requests read from the client and the responses
// written to it, by JSON-RPC id, so that the end of input can wait until
// every request read is answered. It reads a message as the SDK does
// (jsonrpc.DecodeMessage), so that it counts exactly the requests the
// server answers, and an id the client wrote 5.0 is struck by the answer
// to id 5. The requests of a batch are not counted. An id is pending
// once however often it is read: the SDK answers a request whose id is
// already in flight without an id.
//
// The ledger and the eofGate exist because go-sdk v1.8.0 cancels the calls
// in flight when its input ends and drops their answers;
// TestTheSDKDropsTheAnswersOfCallsInFlightAtEndOfInput pins that, and
// when it fails both can go.
type ledger struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // requests read and not yet answered
	changed chan struct{}       // closed and replaced on every change
}

func newLedger() *ledger {
	return &ledger{pending: map[jsonrpc.ID]bool{}, changed: make(chan struct{})}
}

// read notes a line read from the client: one JSON value, counted when
// it is a request.
func (l *ledger) read(line []byte) {
	if req, ok := decode(line).(*jsonrpc.Request); ok && req.ID.IsValid() {
		l.set(req.ID, true)
	}
}

// writer passes out through and strikes every answered id.
func (l *ledger) writer(out io.Writer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		n, err := out.Write(p)
		for _, line := range bytes.Split(p[:n], []byte("\n")) {
			if resp, ok := decode(line).(*jsonrpc.Response); ok {
				l.set(resp.ID, false)
			}
		}
		return n, err
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// decode is the message of line, nil when it is none (a batch, or not
// JSON-RPC).
func decode(line []byte) jsonrpc.Message {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil
	}
	return msg
}

// set records whether id is pending.
func (l *ledger) set(id jsonrpc.ID, pending bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending[id] == pending {
		return
	}
	if pending {
		l.pending[id] = true
	} else {
		delete(l.pending, id)
	}
	close(l.changed)
	l.changed = make(chan struct{})
}

// settled waits until no request is pending, or ctx ends.
func (l *ledger) settled(ctx context.Context) {
	for {
		l.mu.Lock()
		n, changed := len(l.pending), l.changed
		l.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}
