package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// ledger counts the requests read from the client and the responses
// written to it, by JSON-RPC id, so that the end of input can wait until
// every request read is answered.
type ledger struct {
	mu      sync.Mutex
	pending map[string]bool
	changed chan struct{} // closed and replaced on every change
}

func newLedger() *ledger {
	return &ledger{pending: map[string]bool{}, changed: make(chan struct{})}
}

// reader passes in through and notes every request's id. A line longer
// than its 64 KiB buffer is passed through in pieces, unnoted (the
// server's own line limit answers it), so memory stays bounded.
func (l *ledger) reader(in io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		long := false // inside a line too long to note
		for {
			piece, err := r.ReadSlice('\n')
			if len(piece) > 0 {
				if !long && err != bufio.ErrBufferFull {
					l.note(piece, true)
				}
				long = err == bufio.ErrBufferFull
				if _, werr := pw.Write(piece); werr != nil {
					return
				}
			}
			if err != nil && err != bufio.ErrBufferFull {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// writer passes out through and strikes every answered id.
func (l *ledger) writer(out io.Writer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		n, err := out.Write(p)
		for _, line := range bytes.Split(p[:n], []byte("\n")) {
			l.note(line, false)
		}
		return n, err
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// note records a request (a message with a method and an id) or strikes a
// response (a message with an id and no method). Batches and lines that
// are not JSON are ignored: the server answers those itself at once.
func (l *ledger) note(line []byte, incoming bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	id := string(m.ID)
	switch {
	case incoming && m.Method != "":
		l.pending[id] = true
	case !incoming && m.Method == "":
		delete(l.pending, id)
	default:
		return
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
