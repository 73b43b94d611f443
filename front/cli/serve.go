package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/rypsok/rypsok/front/mcpserver"
)

func serveCmd(ctx context.Context, args []string, st Streams, env Env) int {
	var configPath, transport string
	pos, err := flags("serve", args, func(fs *flag.FlagSet) {
		fs.StringVar(&configPath, "config", "", "configuration file")
		fs.StringVar(&transport, "transport", "stdio", "stdio or http")
	})
	if err != nil {
		return usageError(st.Stderr, err)
	}
	if len(pos) > 0 {
		return usageError(st.Stderr, fmt.Errorf("unexpected argument %q", pos[0]))
	}
	switch transport {
	case "stdio":
	case "http":
		fmt.Fprintln(st.Stderr, "rypsok: the http transport is not available in this version")
		return ExitInvalid
	default:
		return usageError(st.Stderr, fmt.Errorf("unknown transport %q (stdio or http)", transport))
	}
	r, err := start(configPath, st.Stderr, env)
	if err != nil {
		printLines(st.Stderr, err)
		return ExitInvalid
	}
	defer r.close()
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
	if err := mcpserver.ServeStdio(ctx, opts, st.Stdin, st.Stdout, r.log); err != nil {
		r.log.Error().Str("event", "exit").Err(err).Send()
		return ExitInvalid
	}
	return ExitOK
}

// serveMetrics serves the counters on the loopback [telemetry]
// metrics_listen, GET /metrics only, until stop.
func serveMetrics(r *runtime) (stop func(), err error) {
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
