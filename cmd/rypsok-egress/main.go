// Command rypsok-egress is rypsok's locked-down egress proxy. See the
// README's section for network teams.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/rypsok/rypsok/egress/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
