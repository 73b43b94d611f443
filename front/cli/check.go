package cli

import (
	"flag"
	"fmt"
)

// defaultSidecarSocket is the socket --egress-config writes when the
// configuration names none.
const defaultSidecarSocket = "/run/rypsok/egress.sock"

// checkCmd is `rypsok check`: validate the configuration, every problem
// named, and warn of what a valid configuration may not do as meant
// (warnUnreadToken). With --egress-config it prints, instead of "valid",
// the rypsok-egress configuration that goes with it (the engines'
// endpoints, the allow and deny rules), for an egress run separately
// ([egress] socket, sidecar mode) to be written from, not by hand.
func checkCmd(args []string, st Streams, env Env) int {
	var configPath string
	var egressConfig bool
	pos, code, done := flags(st, "check", checkUsage, args, func(fs *flag.FlagSet) {
		fs.StringVar(&configPath, "config", "", "configuration file")
		fs.BoolVar(&egressConfig, "egress-config", false, "print the matching rypsok-egress configuration")
	})
	switch {
	case done:
		return code
	case len(pos) > 0:
		return usageError(st.Stderr, fmt.Errorf("unexpected argument %q", pos[0]))
	}
	cfg, path, err := loadConfig(configPath, env)
	if err != nil {
		printLines(st.Stderr, err)
		return ExitInvalid
	}
	warnUnreadToken(outputFor(st, env, cfg.LogLevel, true).logger(), cfg, env)
	if egressConfig {
		socket := cfg.Egress.Socket
		if socket == "" {
			socket = defaultSidecarSocket
		}
		b, err := cfg.EgressTOML(socket)
		if err != nil {
			printLines(st.Stderr, err)
			return ExitInvalid
		}
		st.Stdout.Write(b)
		return ExitOK
	}
	if path == "" {
		path = "no configuration file: the defaults"
	}
	fmt.Fprintf(st.Stdout, "%s: valid\n", path)
	return ExitOK
}
