// Package cli is rypsok-egress's command line: serving (the default),
// check, healthcheck, and --version. main only wires it to the process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rypsok/rypsok/shared/version"
)

// Exit codes.
const (
	ExitOK      = 0
	ExitInvalid = 1 // invalid configuration, or the egress could not run
	ExitUsage   = 2
)

// Version reports the version (shared/version).
func Version() string { return version.String() }

const usage = `usage:
  rypsok-egress [--config FILE] [--socket PATH] [--lifeline FD]
                                                  serve until SIGTERM, or until FD (a pipe
                                                  the parent holds open) closes: then drain,
                                                  and remove the socket, the --config file
                                                  beside it, and their directory if empty
  rypsok-egress check --config FILE               validate a configuration
  rypsok-egress healthcheck [--socket PATH | --config FILE] [--timeout 4s]
                                                  for container probes: the egress at the socket
                                                  answers /healthz and refuses https://0.0.0.0/
                                                  by its policy (nothing leaves); exit 0 healthy, 1 not
  rypsok-egress --version                         print the version
`

// Main runs the command line args (without the program name) and returns
// the exit code. ctx ends on SIGTERM or SIGINT; serving then drains.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "check" {
		return check(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "healthcheck" {
		return healthcheck(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 1 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		fmt.Fprint(stdout, usage)
		return ExitOK
	}
	fs := flag.NewFlagSet("rypsok-egress", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "configuration file")
	socketPath := fs.String("socket", "", "Unix socket to listen on")
	lifeline := fs.Int("lifeline", -1, "descriptor whose end of file means the parent is gone")
	showVersion := fs.Bool("version", false, "print the version")
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, err)
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if *showVersion {
		fmt.Fprintf(stdout, "rypsok-egress %s\n", Version())
		return ExitOK
	}
	return serve(ctx, *configPath, *socketPath, *lifeline, stderr)
}

func check(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rypsok-egress check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "configuration file")
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, err)
	}
	if fs.NArg() > 0 || *configPath == "" {
		return usageError(stderr, errors.New("check needs --config FILE"))
	}
	if _, err := loadConfig(*configPath, ""); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(stderr, line)
		}
		return ExitInvalid
	}
	fmt.Fprintf(stdout, "%s: valid\n", *configPath)
	return ExitOK
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "rypsok-egress: %v\n%s", err, usage)
	return ExitUsage
}
