package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/limits"
)

// ServeStdio serves MCP on in and out until end of input or until ctx ends
// (SIGTERM). Either way no new request is taken, and the requests already
// read are answered before it returns: a host that writes its requests
// and closes its end still gets every answer. A line that is not JSON
// (or longer than LIM-H2) is answered with a JSON-RPC parse error, and
// JSON that is not a message the server takes with invalid request, both
// with id null, and serving goes on.
func ServeStdio(ctx context.Context, o Options, in io.Reader, out io.Writer, log zerolog.Logger) error {
	if o.Answered != nil {
		out = &afterFirstWrite{w: out, fn: o.Answered}
	}
	ledger := newLedger()
	lines := &lineWriter{w: ledger.writer(out)}
	screened := screen(in, ledger, lines)
	defer screened.Close()
	gate := newEOFGate(screened)
	defer gate.release()
	srv := New(o)
	ss, err := srv.Connect(context.Background(), &stdioTransport{in: gate, out: lines}, nil)
	if err != nil {
		return err
	}
	log.Info().Str("event", "serving").Str("transport", "stdio").Send()
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
		log.Info().Str("event", "draining").Str("cause", "signal").Send()
		ss.Close() // stops taking calls, waits for those in flight to be answered
		err = <-ended
	case <-gate.eof:
		log.Info().Str("event", "draining").Str("cause", "end_of_input").Send()
		// Every request read is answered (each call ends within its
		// maximum duration) before the session closes.
		wait, cancel := context.WithTimeout(context.Background(), limits.F5FetchCallMax+time.Second)
		ledger.settled(wait)
		cancel()
		ss.Close()
		<-ended
		err = nil // the end of input is a normal end, whatever the closing session says
	}
	log.Info().Str("event", "stopped").Send()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return err
	}
	return nil
}

// afterFirstWrite runs fn once, after the first write to w.
type afterFirstWrite struct {
	w    io.Writer
	once sync.Once
	fn   func()
}

func (a *afterFirstWrite) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	a.once.Do(a.fn)
	return n, err
}

type nopCloser struct{ io.Reader }

func (nopCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// eofGate holds back the end of input: when in ends, it reports it on eof
// and keeps the reader waiting until release, so that the server can stop
// taking requests and answer those already read before the connection
// sees the end.
type eofGate struct {
	in      io.Reader
	eof     chan struct{}
	seen    sync.Once
	done    chan struct{}
	stopped sync.Once
}

func newEOFGate(in io.Reader) *eofGate {
	return &eofGate{in: in, eof: make(chan struct{}), done: make(chan struct{})}
}

func (g *eofGate) Read(p []byte) (int, error) {
	n, err := g.in.Read(p)
	if err == io.EOF {
		if n > 0 {
			return n, nil // the last bytes first; the next Read meets the end again
		}
		g.seen.Do(func() { close(g.eof) })
		<-g.done
	}
	return n, err
}

// release lets a reader waiting at the end of input see it.
func (g *eofGate) release() { g.stopped.Do(func() { close(g.done) }) }
