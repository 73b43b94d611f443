// Package probe is the client side of a container probe of rypsok's
// HTTP listener: one MCP server/discover (no session, no tool call, no
// rate-limit budget spent) sent over loopback, its answer read within a
// bound. It lives outside front/ because the front opens no connection of
// its own: only `rypsok healthcheck`, a separate short-lived process,
// calls it, and only at a loopback address.
package probe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"
)

// maxDiscoverBytes bounds the answer read.
const maxDiscoverBytes = 64 << 10

// Request is one probe.
type Request struct {
	// Addr is the listener's loopback "ip:port"; Path its MCP path.
	Addr, Path string
	// Revision is the protocol revision asked (handshake-less).
	Revision string
	// Token is the bearer token, "" for none.
	Token string
	// Client and Version name the prober (clientInfo, User-Agent).
	Client, Version string
	// Server is the name the answer must give in serverInfo.
	Server string
}

// Discover sends r's server/discover and checks the answer: HTTP 200, one
// JSON-RPC result naming r.Server and serving r.Revision.
func Discover(ctx context.Context, r Request) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":%q,`+
		`"io.modelcontextprotocol/clientInfo":{"name":%q,"version":%q},`+
		`"io.modelcontextprotocol/clientCapabilities":{}}}}`, r.Revision, r.Client, r.Version)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+r.Addr+r.Path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", r.Revision)
	req.Header.Set("Mcp-Method", "server/discover")
	req.Header.Set("User-Agent", r.Client+"/"+r.Version)
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	resp, err := loopbackClient(r.Addr).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("server/discover answered HTTP %d", resp.StatusCode)
	}
	msg, err := readMessage(resp)
	if err != nil {
		return fmt.Errorf("server/discover: %w", err)
	}
	return checkDiscover(msg, r.Revision, r.Server)
}

// loopbackClient is an HTTP client that connects to addr only, ignores
// proxy variables and keeps no connection.
func loopbackClient(addr string) *http.Client {
	var d net.Dialer
	return &http.Client{
		Transport: &http.Transport{
			Proxy: nil,
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return d.DialContext(ctx, "tcp", addr)
			},
			DisableKeepAlives:      true,
			MaxResponseHeaderBytes: 16 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// readMessage reads the one JSON-RPC message of an answer, sent as JSON or
// as the first event of an SSE stream.
func readMessage(resp *http.Response) ([]byte, error) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	r := io.LimitReader(resp.Body, maxDiscoverBytes)
	switch mt {
	case "application/json":
		return io.ReadAll(r)
	case "text/event-stream":
		var data []byte
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxDiscoverBytes)
		for sc.Scan() {
			line := sc.Bytes()
			if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				data = append(data, bytes.TrimPrefix(d, []byte(" "))...)
				continue
			}
			if len(line) == 0 && len(data) > 0 {
				return data, nil
			}
		}
		if len(data) > 0 {
			return data, nil
		}
		return nil, errors.New("the event stream ended without a message")
	}
	return nil, fmt.Errorf("unexpected Content-Type %q", resp.Header.Get("Content-Type"))
}

// checkDiscover checks a server/discover answer is server's: a result,
// not an error, that serves revision and names server.
func checkDiscover(msg []byte, revision, server string) error {
	var m struct {
		Result *struct {
			SupportedVersions []string `json:"supportedVersions"`
			Meta              struct {
				ServerInfo struct {
					Name string `json:"name"`
				} `json:"io.modelcontextprotocol/serverInfo"`
			} `json:"_meta"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return fmt.Errorf("server/discover: not a JSON-RPC message: %w", err)
	}
	switch {
	case m.Error != nil:
		return fmt.Errorf("server/discover: JSON-RPC error %d", m.Error.Code)
	case m.Result == nil:
		return errors.New("server/discover: no result")
	case !slices.Contains(m.Result.SupportedVersions, revision):
		return fmt.Errorf("server/discover: %s is not among the revisions served %v", revision, m.Result.SupportedVersions)
	case m.Result.Meta.ServerInfo.Name != server:
		return fmt.Errorf("server/discover: the server is %q, not %s", m.Result.Meta.ServerInfo.Name, server)
	}
	return nil
}
