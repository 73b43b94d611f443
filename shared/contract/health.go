package contract

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
)

// HealthPath is the egress's readiness check: an origin-form GET of it is
// answered 200 "ok" with HeaderVersion, by the egress itself.
const HealthPath = "/healthz"

// Healthz sends one origin-form GET HealthPath on the egress's socket,
// within ctx, and reports whether the egress answered 200 naming this
// contract's Version: an egress that serves, and speaks this contract.
func Healthz(ctx context.Context, socket string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrEgressUnreachable, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if _, err := io.WriteString(conn, "GET "+HealthPath+" HTTP/1.1\r\nHost: egress\r\nConnection: close\r\n\r\n"); err != nil {
		return fmt.Errorf("contract: healthz: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("contract: healthz: %w", context.Cause(ctx))
		}
		return fmt.Errorf("contract: healthz: %w", err)
	}
	resp.Body.Close()
	switch v := resp.Header.Get(HeaderVersion); {
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("contract: healthz: status %d", resp.StatusCode)
	case v != strconv.Itoa(Version):
		return fmt.Errorf("contract: healthz: the egress speaks contract version %q, not %d", v, Version)
	}
	return nil
}
