package cli

import (
	"context"
	"flag"
	"fmt"

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
