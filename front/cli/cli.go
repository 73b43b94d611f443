// Package cli is rypsok's command line (docs/operations.md, commands): serve,
// check, call, healthcheck and --version. main only wires it to the process.
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

// Exit codes (docs/operations.md, commands).
const (
	ExitOK      = 0
	ExitInvalid = 1 // invalid configuration, a tool error from call, or a failure to run
	ExitUsage   = 2
)

// Version reports the version (shared/version).
func Version() string { return version.String() }

// The commands' usage, each its synopsis then what it does; usage is all
// of them, and `rypsok CMD --help` shows CMD's with its flags.
const (
	serveUsage = `  rypsok serve [--transport stdio|http] [--config FILE]
                                                     serve MCP: stdio until end of input or SIGTERM;
                                                     http on [service] listen (/mcp) until SIGTERM
`
	checkUsage = `  rypsok check [--config FILE] [--egress-config]     validate the configuration (or print the matching
                                                     rypsok-egress configuration, for a sidecar egress)
`
	callUsage = `  rypsok call TOOL 'JSON-ARGS' [--config FILE]       run one tool call, print the response object
`
	healthcheckUsage = `  rypsok healthcheck [--config FILE] [--egress=false] [--timeout 4s]
                                                     for container probes of serve --transport http:
                                                     MCP server/discover on [service] listen (over
                                                     loopback, with the token), then the [egress]
                                                     socket's /healthz; exit 0 healthy, 1 not
`
	versionUsage = `  rypsok --version                                   print the version
`
	configUsage = `The configuration is --config FILE, else $RYPSOK_CONFIG, else the defaults.
`
)

const usage = "usage:\n" + serveUsage + checkUsage + callUsage + healthcheckUsage + versionUsage + configUsage

// Env reads the environment; tests pass their own.
type Env func(string) string

// Streams are the process's standard streams.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Terminal reports whether Stderr is a terminal (IsTerminal): call
	// and check then log in a short human form.
	Terminal bool
}

// Main runs args (without the program name) and returns the exit code.
// ctx ends on SIGTERM or SIGINT.
func Main(ctx context.Context, args []string, st Streams, env Env) int {
	if len(args) == 0 {
		return usageError(st.Stderr, errors.New("no command"))
	}
	switch args[0] {
	case "--version", "-version":
		if len(args) > 1 {
			return usageError(st.Stderr, fmt.Errorf("unexpected argument %q", args[1]))
		}
		fmt.Fprintf(st.Stdout, "rypsok %s\n", Version())
		return ExitOK
	case "serve":
		return serveCmd(ctx, args[1:], st, env)
	case "check":
		return checkCmd(args[1:], st, env)
	case "call":
		return callCmd(ctx, args[1:], st, env)
	case "healthcheck":
		return healthcheckCmd(ctx, args[1:], st, env)
	case "help", "--help", "-h":
		fmt.Fprint(st.Stdout, usage)
		return ExitOK
	}
	return usageError(st.Stderr, fmt.Errorf("unknown command %q", args[0]))
}

func usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "rypsok: %v\n%s", err, usage)
	return ExitUsage
}

// flags parses a command's flags; positional arguments may come before
// or after them. Asked for help (-h, --help), it prints the command's
// usage (cmdUsage) and flags on stdout and returns ExitOK with done; on a
// bad flag it prints the usage error and returns ExitUsage with done;
// otherwise done is false and pos holds the positional arguments.
func flags(st Streams, name, cmdUsage string, args []string, define func(*flag.FlagSet)) (pos []string, code int, done bool) {
	fs := flag.NewFlagSet("rypsok "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	define(fs)
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprint(st.Stdout, "usage:\n"+cmdUsage+"flags:\n")
			fs.SetOutput(st.Stdout)
			fs.PrintDefaults()
			return nil, ExitOK, true
		case err != nil:
			return nil, usageError(st.Stderr, err), true
		case fs.NArg() == 0:
			return pos, ExitOK, false
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func printLines(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintln(w, line)
	}
}
