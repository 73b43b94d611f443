package gate

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Server is a running listener.
type Server struct {
	h        *handler
	ln       *listener
	srv      *http.Server
	done     chan error
	shutdown sync.Once
	err      error
}

// Listen binds o.HTTP.Listen and starts serving; Shutdown stops it.
func Listen(o Options) (*Server, error) {
	ln, err := net.Listen("tcp", o.HTTP.Listen)
	if err != nil {
		return nil, err
	}
	return Serve(ln, o), nil
}

// Serve serves on ln (which it closes at Shutdown).
func Serve(ln net.Listener, o Options) *Server {
	o.defaults()
	h := newHandler(o)
	gl := newListener(ln, o.Connections, o.HTTP.ConnectionsPerSource, o.ProtocolWait, func(r response.HTTPRefusal) { h.refuse(r, "") })
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{
		Handler:           h,
		Protocols:         protocols,
		ReadHeaderTimeout: o.RequestTime, // LIM-H5, headers
		ReadTimeout:       o.RequestTime, // LIM-H5, the whole request; lifted once the body is read
		IdleTimeout:       o.RequestTime,
		// The server allows 4,096 bytes beyond MaxHeaderBytes: LIM-H7 holds
		// the request line and headers together; beyond it, 431.
		MaxHeaderBytes: limits.H7HeaderBytes - 4096,
		ErrorLog:       log.New(io.Discard, "", 0),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if gc, ok := c.(*conn); ok {
				return context.WithValue(ctx, connKey{}, gc)
			}
			return ctx
		},
	}
	s := &Server{h: h, ln: gl, srv: srv, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(gl) }()
	o.Log.Info().Str("event", "serving").Str("transport", "http").Str("listen", ln.Addr().String()).Send()
	return s
}

// Addr is the bound address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Shutdown stops accepting, lets the calls in flight be answered (each
// within its maximum duration, so at most LIM-F5), ends standalone
// streams once they are, then closes what is left.
func (s *Server) Shutdown() error {
	s.shutdown.Do(func() { s.err = s.stop() })
	return s.err
}

func (s *Server) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), limits.F5FetchCallMax+2*time.Second)
	defer cancel()
	var drained sync.WaitGroup
	drained.Go(func() {
		// Standalone streams end once the calls in flight are answered: a
		// client whose standalone stream ends may give up its session, and
		// with it the answers still to come on its POST streams.
		s.h.callsDone(ctx)
		s.h.stopDrain()
	})
	err := s.srv.Shutdown(ctx)
	s.h.stopDrain()
	cancel()
	drained.Wait()
	s.h.o.MCP.Close()
	s.srv.Close()
	s.ln.Close()
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
