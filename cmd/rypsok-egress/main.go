// Command rypsok-egress is rypsok's locked-down egress proxy. See
// docs/egress.md, its reference for network teams.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/rypsok/rypsok/egress/cli"
)

func main() {
	// An egress whose parent died has lost the reader of its stderr; it
	// must still drain and clean up (--lifeline), so a write to a broken
	// stderr fails instead of killing the process with SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
