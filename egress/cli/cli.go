// Package cli is rypsok-egress's command line: serve (the default),
// check, healthcheck, and --version. main only wires it to the process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rypsok/rypsok/egress/config"
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

// The subcommands' usage, each its synopsis then what it does; usage is
// all of them, and `rypsok-egress CMD --help` shows CMD's with its flags.
const (
	serveUsage = `  rypsok-egress [serve] [--config FILE] [--socket PATH] [--lifeline FD]
                                                  serve until SIGTERM, or until FD (a pipe
                                                  the parent holds open) closes: then drain,
                                                  and remove the socket, the --config file
                                                  beside it, and their directory if empty
`
	checkUsage = `  rypsok-egress check --config FILE               validate a configuration, and what serving
                                                  it needs: the socket's directory, DNS servers
`
	healthcheckUsage = `  rypsok-egress healthcheck [--socket PATH | --config FILE] [--timeout 4s]
                                                  for container probes: the egress at the socket
                                                  answers /healthz and refuses https://0.0.0.0/
                                                  by its policy (nothing leaves); exit 0 healthy, 1 not
`
	versionUsage = `  rypsok-egress --version                         print the version
`
)

const usage = "usage:\n" + serveUsage + checkUsage + healthcheckUsage + versionUsage

// Main runs the command line args (without the program name) and returns
// the exit code. ctx ends on SIGTERM or SIGINT; serving then drains.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		fmt.Fprint(stdout, usage)
		return ExitOK
	}
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "", "serve":
		return serveCmd(ctx, args, stdout, stderr)
	case "check":
		return check(args, stdout, stderr)
	case "healthcheck":
		return healthcheck(ctx, args, stdout, stderr)
	}
	return usageError(stderr, fmt.Errorf("unknown command %q", cmd))
}

// newFlags returns the flag set of a subcommand; its usage is shown by
// parse on -h or --help.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses a subcommand's args. Asked for help (-h, --help), it
// prints the subcommand's usage and flags on stdout and returns ExitOK
// with done; on an error it prints the usage error and returns ExitUsage
// with done; otherwise done is false.
func parse(fs *flag.FlagSet, args []string, cmdUsage string, stdout, stderr io.Writer) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, "usage:\n"+cmdUsage+"flags:\n")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return ExitOK, true
	case err != nil:
		return usageError(stderr, err), true
	case fs.NArg() > 0:
		return usageError(stderr, fmt.Errorf("unexpected argument %q", fs.Arg(0))), true
	}
	return ExitOK, false
}

// serveCmd is serving, `rypsok-egress [serve]`, and --version.
func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rypsok-egress")
	configPath := fs.String("config", "", "configuration file")
	socketPath := fs.String("socket", "", "Unix socket to listen on (wins over [listen] socket)")
	lifeline := fs.Int("lifeline", -1, "descriptor whose end of file means the parent is gone")
	showVersion := fs.Bool("version", false, "print the version")
	if code, done := parse(fs, args, serveUsage+versionUsage, stdout, stderr); done {
		return code
	}
	if *showVersion {
		fmt.Fprintf(stdout, "rypsok-egress %s\n", Version())
		return ExitOK
	}
	return serve(ctx, *configPath, *socketPath, *lifeline, stderr)
}

// check is `rypsok-egress check`: the configuration, and what serving it
// would refuse (config.Check).
func check(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rypsok-egress check")
	configPath := fs.String("config", "", "configuration file")
	if code, done := parse(fs, args, checkUsage, stdout, stderr); done {
		return code
	}
	if *configPath == "" {
		return usageError(stderr, errors.New("check needs --config FILE"))
	}
	if _, err := config.Check(*configPath); err != nil {
		printLines(stderr, err)
		return ExitInvalid
	}
	fmt.Fprintf(stdout, "%s: valid\n", *configPath)
	return ExitOK
}

// printLines writes err's lines (one per problem) to w.
func printLines(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintln(w, line)
	}
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "rypsok-egress: %v\n%s", err, usage)
	return ExitUsage
}
