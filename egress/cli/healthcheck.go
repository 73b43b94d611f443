package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/rypsok/rypsok/shared/contract"
)

// HealthcheckProbeURL is the request the healthcheck asks the egress to
// forward, in the agent profile. Its host is the unspecified address,
// which the policy never dials whatever the allow rules say: an egress
// that applies its policy refuses it (address, or deny_rule when a deny
// rule names it) without resolving or connecting anything. An egress that
// forwarded it would be applying no policy.
const HealthcheckProbeURL = "https://0.0.0.0/"

// DefaultHealthcheckTimeout bounds the whole check unless --timeout says
// otherwise; it stays below a Kubernetes probe's timeoutSeconds of 5.
const DefaultHealthcheckTimeout = 4 * time.Second

// healthcheck is `rypsok-egress healthcheck`: for a container probe. It
// connects to the egress's socket (from --socket, else [listen] socket of
// --config), asks GET /healthz (the egress serves and speaks this
// contract), then asks it to forward HealthcheckProbeURL and expects the
// policy's refusal with its Rypsok-Refusal header (the egress applies its
// policy). Nothing leaves the host. Exit 0 healthy, 1 not, 2 usage.
func healthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rypsok-egress healthcheck")
	configPath := fs.String("config", "", "configuration file (for its [listen] socket)")
	socketPath := fs.String("socket", "", "the egress's Unix socket")
	timeout := fs.Duration("timeout", DefaultHealthcheckTimeout, "deadline of the whole check")
	if code, done := parse(fs, args, healthcheckUsage, stdout, stderr); done {
		return code
	}
	if *timeout <= 0 {
		return usageError(stderr, errors.New("healthcheck needs a positive --timeout"))
	}
	c, err := loadConfig(*configPath, *socketPath)
	if err != nil {
		printLines(stderr, err)
		return ExitInvalid
	}
	if c.Socket == "" {
		return usageError(stderr, errors.New("healthcheck needs --socket PATH or --config FILE with [listen] socket"))
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := contract.Healthz(ctx, c.Socket); err != nil {
		fmt.Fprintf(stderr, "rypsok-egress at %s: not healthy: %v\n", c.Socket, err)
		return ExitInvalid
	}
	reason, err := probePolicy(ctx, c.Socket)
	if err != nil {
		fmt.Fprintf(stderr, "rypsok-egress at %s: not healthy: %v\n", c.Socket, err)
		return ExitInvalid
	}
	fmt.Fprintf(stdout, "rypsok-egress at %s: healthy (serves; refused %s: %s)\n", c.Socket, HealthcheckProbeURL, reason)
	return ExitOK
}

// probePolicy asks the egress to forward HealthcheckProbeURL and returns
// the reason of its refusal, or an error when it did not refuse it as
// its policy must.
func probePolicy(ctx context.Context, socket string) (contract.Reason, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, HealthcheckProbeURL, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("User-Agent", "rypsok-egress-healthcheck")
	contract.Request{Profile: contract.ProfileAgent}.Apply(req.Header)
	resp, err := (&contract.Client{Socket: socket}).RoundTrip(req)
	if err != nil {
		return "", err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	reason, refused := contract.RefusalOf(resp)
	switch {
	case !refused:
		return "", fmt.Errorf("the policy was not applied: %s was answered %d without a refusal", HealthcheckProbeURL, resp.StatusCode)
	case reason != contract.ReasonAddress && reason != contract.ReasonDenyRule:
		return "", fmt.Errorf("%s was refused for %s (status %d), not by the address policy", HealthcheckProbeURL, reason, resp.StatusCode)
	case resp.StatusCode != contract.Status(reason):
		return "", fmt.Errorf("the refusal %s came with status %d, not %d", reason, resp.StatusCode, contract.Status(reason))
	}
	return reason, nil
}
