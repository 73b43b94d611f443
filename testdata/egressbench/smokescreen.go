package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/sirupsen/logrus"
	"github.com/stripe/smokescreen/cmd"
	"github.com/stripe/smokescreen/pkg/smokescreen"
)

// runSmokescreen is the "smokescreen" mode of this binary: smokescreen as
// its own main starts it (cmd.NewConfiguration, JSON logs, StartWithConfig),
// listening on --listen and admitting loopback (--allow-range 127.0.0.0/8),
// with no egress ACL, so every request is allowed by ACL and judged only by
// address. It serves until killed.
func runSmokescreen(args []string) int {
	fs := flag.NewFlagSet("smokescreen", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:4750", "loopback ip:port to listen on")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	host, port, err := net.SplitHostPort(*listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	logger := logrus.New()
	logger.Out = os.Stderr
	conf, err := cmd.NewConfiguration([]string{
		"smokescreen",
		"--listen-ip", host,
		"--listen-port", port,
		"--allow-range", "127.0.0.0/8",
	}, logger)
	if err != nil || conf == nil {
		fmt.Fprintln(os.Stderr, "smokescreen configuration:", err)
		return 1
	}
	// As smokescreen's own main does.
	conf.RoleFromRequest = func(req *http.Request) (string, error) {
		return "", smokescreen.MissingRoleError("no client certificates in this bench")
	}
	conf.Log.Formatter = &logrus.JSONFormatter{}
	log.SetOutput(&smokescreen.Log2LogrusWriter{Entry: conf.Log.WithField("stdlog", "1")})
	log.SetFlags(0)
	smokescreen.StartWithConfig(conf, nil)
	return 0
}
