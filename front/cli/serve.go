package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/gate"
	"github.com/rypsok/rypsok/front/mcpserver"
)

func serveCmd(ctx context.Context, args []string, st Streams, env Env) int {
	var configPath, transport string
	pos, code, done := flags(st, "serve", serveUsage, args, func(fs *flag.FlagSet) {
		fs.StringVar(&configPath, "config", "", "configuration file")
		fs.StringVar(&transport, "transport", "stdio", "stdio or http")
	})
	switch {
	case done:
		return code
	case len(pos) > 0:
		return usageError(st.Stderr, fmt.Errorf("unexpected argument %q", pos[0]))
	}
	switch transport {
	case "stdio", "http":
	default:
		return usageError(st.Stderr, fmt.Errorf("unknown transport %q (stdio or http)", transport))
	}
	if env("GOMEMLIMIT") == "" {
		// A soft limit under the front's 128 MiB budget (REQ-PERF-003): the
		// collector works harder as the heap nears it, instead of letting
		// the heap double between collections while large pages convert.
		debug.SetMemoryLimit(MemoryLimit)
	}
	r, err := start(configPath, st, env, transport == "http", false)
	if err != nil {
		printLines(st.Stderr, err)
		return ExitInvalid
	}
	defer r.close()
	warnUnreadToken(r.log, r.cfg, env)
	if r.cfg.MetricsListen != "" {
		stop, err := serveMetrics(r)
		if err != nil {
			printLines(st.Stderr, err)
			return ExitInvalid
		}
		defer stop()
	}
	opts := mcpserver.Options{
		Services:          r.services,
		Version:           Version(),
		StructuredContent: r.cfg.Service.StructuredContent,
		Caller:            "stdio",
	}
	if transport == "http" {
		r.startEgress()
		return serveHTTP(ctx, r, opts)
	}
	opts.Answered = r.startEgress // once initialize is answered: cold start
	if err := mcpserver.ServeStdio(ctx, opts, st.Stdin, st.Stdout, r.log); err != nil {
		r.log.Error().Str("event", "exit").Err(err).Send()
		return ExitInvalid
	}
	return ExitOK
}

// MemoryLimit is the Go runtime's soft memory limit for `rypsok serve`
// unless GOMEMLIMIT is set.
const MemoryLimit = 96 << 20

// serveHTTP serves Streamable HTTP on [service] listen until ctx ends
// (SIGTERM), then stops accepting and lets the calls in flight end.
func serveHTTP(ctx context.Context, r *instance, opts mcpserver.Options) int {
	opts.Caller = config.CallerLocal
	hs := mcpserver.NewHTTP(opts)
	srv, err := gate.Listen(gate.Options{HTTP: r.cfg.Service.HTTP, MCP: hs, Log: r.log, Metrics: r.metrics})
	if err != nil {
		r.log.Error().Str("event", "exit").Err(err).Send()
		return ExitInvalid
	}
	<-ctx.Done()
	r.log.Info().Str("event", "draining").Str("cause", "signal").Send()
	if err := srv.Shutdown(); err != nil {
		r.log.Warn().Str("event", "drain").Err(err).Send()
	}
	r.log.Info().Str("event", "stopped").Send()
	return ExitOK
}

// serveMetrics serves the counters on the loopback [telemetry]
// metrics_listen, GET /metrics only, until stop.
func serveMetrics(r *instance) (stop func(), err error) {
	ln, err := net.Listen("tcp", r.cfg.MetricsListen)
	if err != nil {
		return nil, fmt.Errorf("metrics listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", r.metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	r.log.Info().Str("event", "metrics").Str("listen", ln.Addr().String()).Send()
	return func() {
		srv.Close()
		<-done
	}, nil
}
