package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/front/mcpserver"
	"github.com/rypsok/rypsok/shared/limits"
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
	if err := serveStdio(ctx, r, st.Stdin, st.Stdout); err != nil {
		r.log.Error().Str("event", "exit").Err(err).Send()
		return ExitInvalid
	}
	return ExitOK
}

// serveStdio serves MCP on in and out until end of input (the calls in
// flight are cancelled) or until ctx ends (SIGTERM: no new call is taken,
// the calls in flight finish and are answered).
func serveStdio(ctx context.Context, r *runtime, in io.Reader, out io.Writer) error {
	srv := mcpserver.New(mcpserver.Options{
		Services:          r.services,
		Version:           Version(),
		StructuredContent: r.cfg.Service.StructuredContent,
		Caller:            "stdio",
	})
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: nopCloser{in}, Writer: nopWriteCloser{out}, MaxLineLength: limits.H2BodyBytes}, nil)
	if err != nil {
		return err
	}
	r.log.Info().Str("event", "serving").Str("transport", "stdio").Send()
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
		r.log.Info().Str("event", "draining").Send()
		ss.Close() // stops taking calls, waits for those in flight to be answered
		err = <-ended
	}
	r.log.Info().Str("event", "stopped").Send()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return err
	}
	return nil
}

type nopCloser struct{ io.Reader }

func (nopCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
