package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bound is how long these tests wait for the SDK before they fail: a
// bound on a failure, never a pause that orders events.
const bound = 10 * time.Second

// answerLog collects the answers by id as they are written, those of a
// batch one by one.
type answerLog struct {
	mu      sync.Mutex
	partial []byte
	byID    map[string]answer
	bad     []string
	changed chan struct{}
}

func newAnswerLog() *answerLog {
	return &answerLog{byID: map[string]answer{}, changed: make(chan struct{})}
}

func (l *answerLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := strings.IndexByte(string(l.partial), '\n')
		if i < 0 {
			break
		}
		var batch []answer
		var one answer
		switch line := l.partial[:i]; {
		case json.Unmarshal(line, &batch) == nil:
		case json.Unmarshal(line, &one) == nil:
			batch = []answer{one}
		default:
			l.bad = append(l.bad, string(line))
		}
		for _, a := range batch {
			l.byID[string(a.ID)] = a
		}
		l.partial = l.partial[i+1:]
	}
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

func (l *answerLog) Close() error { return nil }

// get returns the answer to id, if it was written.
func (l *answerLog) get(id string) (answer, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.byID[id]
	return a, ok
}

// count is the number of ids answered, and of lines that were no answer.
func (l *answerLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byID) + len(l.bad)
}

// await waits for the answer to id, at most bound.
func (l *answerLog) await(t *testing.T, id string) answer {
	t.Helper()
	timeout := time.After(bound)
	for {
		l.mu.Lock()
		a, ok := l.byID[id]
		changed := l.changed
		l.mu.Unlock()
		if ok {
			return a
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("no answer to id %s within %v", id, bound)
		}
	}
}

// pipeStdio is a server connected to a stdio transport over a pipe,
// whose answers are logged as they are written.
type pipeStdio struct {
	in  *io.PipeWriter
	out *answerLog
	ss  *mcp.ServerSession
}

// connectSDKStdio connects srv to the SDK's own stdio transport.
func connectSDKStdio(t *testing.T, srv *mcp.Server) *pipeStdio {
	t.Helper()
	return connectPipe(t, srv, func(in io.ReadCloser, out *answerLog) mcp.Transport {
		return &mcp.IOTransport{Reader: in, Writer: out}
	})
}

// connectPipe connects srv to the transport that transport makes of the
// pipe's end and the log.
func connectPipe(t *testing.T, srv *mcp.Server, transport func(io.ReadCloser, *answerLog) mcp.Transport) *pipeStdio {
	t.Helper()
	pr, pw := io.Pipe()
	s := &pipeStdio{in: pw, out: newAnswerLog()}
	ss, err := srv.Connect(context.Background(), transport(pr, s.out), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.ss = ss
	t.Cleanup(func() { pw.Close(); ss.Close() })
	return s
}

// send writes lines to the server, each with its newline.
func (s *pipeStdio) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// end ends the input and waits, at most bound, for the session to end.
func (s *pipeStdio) end(t *testing.T, what string) {
	t.Helper()
	s.in.Close()
	ended := make(chan struct{})
	go func() { s.ss.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(bound):
		t.Fatal(what)
	}
}
