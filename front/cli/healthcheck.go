package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/gate"
	"github.com/rypsok/rypsok/internal/probe"
	"github.com/rypsok/rypsok/shared/contract"
)

// DefaultHealthcheckTimeout bounds the whole check unless --timeout says
// otherwise; it stays below a Kubernetes probe's timeoutSeconds of 5.
const DefaultHealthcheckTimeout = 4 * time.Second

// healthcheck is `rypsok healthcheck`: for a container probe of `serve
// --transport http`. It POSTs one MCP server/discover (revision
// 2026-07-28: no session, no tool call, no rate-limit budget spent) to
// [service] listen over loopback, with the first configured caller's
// token, and expects rypsok's answer; then, with [egress] socket set
// (sidecar mode) and unless --egress=false, it asks that egress's
// /healthz. Exit 0 healthy, 1 not (or an invalid configuration), 2
// usage.
func healthcheckCmd(ctx context.Context, args []string, st Streams, env Env) int {
	var configPath string
	var timeout time.Duration
	checkEgress := true
	pos, code, done := flags(st, "healthcheck", healthcheckUsage, args, func(fs *flag.FlagSet) {
		fs.StringVar(&configPath, "config", "", "configuration file")
		fs.DurationVar(&timeout, "timeout", DefaultHealthcheckTimeout, "deadline of the whole check")
		fs.BoolVar(&checkEgress, "egress", true, "also check the egress at [egress] socket")
	})
	switch {
	case done:
		return code
	case len(pos) > 0:
		return usageError(st.Stderr, fmt.Errorf("unexpected argument %q", pos[0]))
	case timeout <= 0:
		return usageError(st.Stderr, errors.New("healthcheck needs a positive --timeout"))
	}
	cfg, _, err := loadConfig(configPath, env)
	if err != nil {
		printLines(st.Stderr, err)
		return ExitInvalid
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	addr, caller, err := discover(ctx, cfg.Service.HTTP, env)
	if err != nil {
		fmt.Fprintf(st.Stderr, "rypsok at %s: not healthy: %v\n", cfg.Service.HTTP.Listen, err)
		return ExitInvalid
	}
	egress := "egress not checked"
	switch {
	case cfg.Egress.Socket == "":
		egress = "egress started by serve itself, not checked"
	case checkEgress:
		if err := contract.Healthz(ctx, cfg.Egress.Socket); err != nil {
			fmt.Fprintf(st.Stderr, "rypsok at %s: serves MCP, but its egress at %s does not answer: %v\n", addr, cfg.Egress.Socket, err)
			return ExitInvalid
		}
		egress = "egress at " + cfg.Egress.Socket + " answers"
	}
	fmt.Fprintf(st.Stdout, "rypsok at %s: healthy (MCP server/discover answered for caller %s; %s)\n", addr, caller, egress)
	return ExitOK
}

// discover sends server/discover to the listener of h and checks the
// answer is rypsok's; it returns the address it reached and the caller it
// presented.
func discover(ctx context.Context, h config.HTTP, env Env) (addr, caller string, err error) {
	addr, err = loopbackOf(h.Listen)
	if err != nil {
		return "", "", err
	}
	caller, token := config.CallerLocal, ""
	if len(h.Tokens) > 0 {
		t := h.Tokens[0] // the default caller when it has a token, else the first by name
		if token, err = t.Read(env); err != nil {
			return addr, "", err
		}
		caller = t.Caller
	}
	err = probe.Discover(ctx, probe.Request{
		Addr: addr, Path: gate.Path, Revision: gate.ModernRevision, Token: token,
		Client: "rypsok-healthcheck", Version: Version(), Server: "rypsok",
	})
	return addr, caller, err
}

// loopbackOf returns the loopback address at which the listener of listen
// is reached: the listener's own address when it is a loopback one, the
// family's loopback address when it is unspecified (all interfaces). A
// listener on another address is not reached: the healthcheck, like the
// rest of rypsok, opens no connection off the host's loopback.
func loopbackOf(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("service.listen %q: %w", listen, err)
	}
	if port == "0" {
		return "", fmt.Errorf("service.listen %q: port 0 is chosen at start, so the healthcheck cannot know it", listen)
	}
	if host == "" || strings.EqualFold(host, "localhost") {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	a, err := netip.ParseAddr(host)
	switch {
	case err != nil:
		return "", fmt.Errorf("service.listen %q: %w", listen, err)
	case a.IsUnspecified() && a.Is4():
		return net.JoinHostPort("127.0.0.1", port), nil
	case a.IsUnspecified():
		return net.JoinHostPort("::1", port), nil
	case a.Unmap().IsLoopback():
		return net.JoinHostPort(a.Unmap().String(), port), nil
	}
	return "", fmt.Errorf("service.listen %q: the healthcheck reaches the listener over loopback only; listen on 0.0.0.0, [::] or a loopback address", listen)
}
