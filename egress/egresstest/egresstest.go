// Package egresstest runs a real rypsok-egress inside a test process: the
// proxy with its policy, resolver (against an in-process DNS server) and
// dialer, listening on a Unix socket in the test's temporary directory,
// stopped when the test ends. It is test support for the front's
// packages, which reach the network only through an egress.
package egresstest

import (
	"net/http"
	"testing"

	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/egress/dnstest"
	"github.com/rypsok/rypsok/egress/proxy"
	"github.com/rypsok/rypsok/egress/resolver"
	"github.com/rypsok/rypsok/egress/socket"
	"github.com/rypsok/rypsok/shared/policy"
)

// Start starts an egress judging by cfg and returns its socket path.
func Start(tb testing.TB, cfg policy.Config) string {
	tb.Helper()
	dns := dnstest.Start(tb)
	res, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}})
	if err != nil {
		tb.Fatal(err)
	}
	p := proxy.New(proxy.Options{
		Policy:   policy.New(cfg),
		Resolver: res,
		Dialer:   dialer.Dialer{Slots: dialer.NewSlots(64)},
	})
	path := tb.TempDir() + "/egress.sock"
	ln, err := socket.Listen(path, -1)
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: p}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	tb.Cleanup(func() {
		srv.Close()
		<-done
		p.CloseIdle()
	})
	return path
}
