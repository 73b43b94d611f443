package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/egress/config"
	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/egress/proxy"
	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/egress/socket"
	"github.com/rypsok/rypsok/egress/telemetry"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// drainMargin is added to LIM-F4 when draining: in-flight requests end
// within their deadline, and their last bytes need a moment to flush.
const drainMargin = 2 * time.Second

// loadConfig loads path (defaults when empty) and applies the --socket
// override.
func loadConfig(path, socketPath string) (config.Config, error) {
	c := config.Default()
	if path != "" {
		var err error
		if c, err = config.Load(path); err != nil {
			return c, err
		}
	}
	if socketPath != "" {
		c.Socket = socketPath
	}
	return c, nil
}

// serve runs the egress until ctx ends or, with a lifeline (fd >= 0),
// until the parent is gone; then it also removes what the parent made for
// it (removeOwned), since the parent cannot any more.
func serve(ctx context.Context, configPath, socketPath string, lifeline int, stderr io.Writer) int {
	ctx, stopWatching, err := watchParent(ctx, lifeline)
	if err != nil {
		return usageError(stderr, err)
	}
	defer stopWatching()
	c, err := loadConfig(configPath, socketPath)
	if err != nil {
		printLines(stderr, err)
		return ExitInvalid
	}
	if c.Socket == "" {
		return usageError(stderr, errors.New("no socket: set [listen] socket or --socket PATH"))
	}
	log := zerolog.New(stderr).Level(c.LogLevel).With().Timestamp().Str("service", "rypsok-egress").Logger()
	err = run(ctx, c, log)
	if parentGone(ctx) {
		log.Info().Str("event", "parent_gone").Send()
		if rerr := removeOwned(c.Socket, configPath); rerr != nil {
			log.Warn().Str("event", "cleanup").Err(rerr).Send()
		}
	}
	if err != nil {
		log.Error().Str("event", "exit").Err(err).Send()
		return ExitInvalid
	}
	return ExitOK
}

// run serves c until ctx ends, then drains in-flight requests.
func run(ctx context.Context, c config.Config, log zerolog.Logger) error {
	servers := c.DNSServers
	if len(servers) == 0 {
		var err error
		if servers, err = resolver.ServersFromResolvConf(config.DefaultResolvConf); err != nil {
			return fmt.Errorf("dns servers: %w", err)
		}
	}
	res, err := resolver.New(resolver.Config{Servers: servers})
	if err != nil {
		return err
	}
	metrics := telemetry.New()
	p := proxy.New(proxy.Options{
		Policy:        policy.New(c.Policy),
		Resolver:      res,
		Log:           log,
		Metrics:       metrics,
		Upstream:      c.Upstream,
		UpstreamAgent: c.UpstreamAgent,
		Dialer:        dialer.Dialer{RootCAs: c.RootCAs, Slots: dialer.NewSlots(limits.E3UpstreamConns)},
	})
	ln, err := socket.Listen(c.Socket, c.GID)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		IdleTimeout:       60 * time.Second,
		ErrorLog:          nil,
	}
	errc := make(chan error, 2)
	running := 1
	go func() { errc <- srv.Serve(ln) }()
	var msrv *http.Server
	metricsAddr := ""
	if c.MetricsListen != "" {
		mln, err := net.Listen("tcp", c.MetricsListen)
		if err != nil {
			srv.Close()
			<-errc
			return fmt.Errorf("metrics listener: %w", err)
		}
		metricsAddr = mln.Addr().String()
		msrv = &http.Server{Handler: metricsMux(metrics), ReadHeaderTimeout: 5 * time.Second}
		running++
		go func() { errc <- msrv.Serve(mln) }()
	}
	log.Info().Str("event", "ready").Str("socket", c.Socket).Int("dns_servers", len(servers)).
		Int("engines", len(c.Policy.Engines)).Bool("allow_http", c.Policy.AllowHTTP).Str("metrics", metricsAddr).Int("pid", os.Getpid()).Send()

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-errc:
		running--
	}
	log.Info().Str("event", "draining").Send()
	dctx, cancel := context.WithTimeout(context.Background(), limits.F4ResponseTime+drainMargin)
	defer cancel()
	shutdownErr := srv.Shutdown(dctx)
	if msrv != nil {
		msrv.Shutdown(dctx)
	}
	p.CloseIdle()
	for ; running > 0; running-- {
		<-errc // every Serve returns once its server is shut down
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	if shutdownErr != nil {
		return fmt.Errorf("drain: %w", shutdownErr)
	}
	log.Info().Str("event", "stopped").Send()
	return nil
}

// metricsMux serves the counters on /metrics and nothing else.
func metricsMux(m *telemetry.Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	return mux
}
