// Command rypsok is the rypsok MCP server. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/rypsok/rypsok/front/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Terminal: cli.IsTerminal(os.Stderr)}, os.Getenv)
	stop()
	os.Exit(code)
}
