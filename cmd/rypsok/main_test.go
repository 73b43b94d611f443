package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/shared/limits"
)

// bin is the directory holding freshly built rypsok and rypsok-egress.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rypsok-bin-")
	if err != nil {
		panic(err)
	}
	bin = dir
	build := exec.Command("go", "build", "-o", dir+"/", "github.com/rypsok/rypsok/cmd/rypsok", "github.com/rypsok/rypsok/cmd/rypsok-egress")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// rypsok returns a command running the built binary with a clean
// environment (no key, no configuration) plus env.
func rypsok(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "rypsok"), args...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + os.TempDir()}, env...)
	return cmd
}

// session starts `rypsok serve` as an MCP host would and connects a
// go-sdk client to it over stdio.
func session(t *testing.T, env ...string) (*mcp.ClientSession, *exec.Cmd, *bytes.Buffer) {
	t.Helper()
	ctx := context.Background()
	cmd := rypsok(ctx, env, "serve")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	transport := stdioTransport(t, cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close() // closes stdin: rypsok exits at end of input
		cmd.Wait()
	})
	return cs, cmd, &stderr
}

// stdioTransport is an MCP transport over cmd's standard input and
// output, to connect once cmd has started.
func stdioTransport(t *testing.T, cmd *exec.Cmd) *mcp.IOTransport {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return &mcp.IOTransport{Reader: stdout, Writer: stdin}
}

func TestAHostSeesTheToolsOverStdio(t *testing.T) {
	cs, _, _ := session(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "engine_status,web_fetch,web_search" {
		t.Fatalf("tools %s", got)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "external data") {
		t.Errorf("instructions %q", cs.InitializeResult().Instructions)
	}
}

func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args any) (bool, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &obj); err != nil {
		t.Fatal(err)
	}
	return res.IsError, obj
}

func TestCallsOverStdio(t *testing.T) {
	cs, _, _ := session(t, "BRAVE_API_KEY=k")
	isErr, obj := callTool(t, cs, "engine_status", map[string]any{})
	if isErr || obj["outcome"] != "ok" {
		t.Fatalf("engine_status: %v", obj)
	}
	engines, _ := json.Marshal(obj["engines"])
	if !strings.Contains(string(engines), `"id":"brave","latency_ms":null,"state":"closed"`) {
		t.Errorf("brave with a key should be active: %s", engines)
	}
	// The zero configuration's keyless engines are active (closed
	// breakers), the egress started for them: it accepted their profiles.
	for _, id := range []string{"wikipedia", "stackexchange", "arxiv", "marginalia", "gdelt", "hackernews"} {
		if !strings.Contains(string(engines), `"id":"`+id+`","latency_ms":null,"state":"closed"`) {
			t.Errorf("%s should be active without configuration: %s", id, engines)
		}
	}
	isErr, obj = callTool(t, cs, "web_search", map[string]any{"query": "q", "max_results": 99})
	if e, _ := obj["error"].(map[string]any); !isErr || e["kind"] != "invalid_request" {
		t.Errorf("invalid max_results: %v", obj)
	}
	isErr, obj = callTool(t, cs, "web_fetch", map[string]any{"url": "https://127.0.0.1/"})
	if e, _ := obj["error"].(map[string]any); !isErr || e["kind"] != "denied" || e["detail"].(map[string]any)["reason"] != "egress" {
		t.Errorf("web_fetch of a loopback literal: %v, want denied egress", obj)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
		t.Error("an unknown tool: want a protocol error")
	}
}

func TestTheRateLimitHoldsOverStdio(t *testing.T) {
	cs, _, _ := session(t)
	limited := 0
	for i := 0; i < limits.C6CallsPerMinute+5; i++ {
		isErr, obj := callTool(t, cs, "engine_status", nil)
		if isErr {
			d := obj["error"].(map[string]any)["detail"].(map[string]any)
			if d["reason"] != "rate_limited" || d["retry_after_ms"] == nil {
				t.Fatalf("call %d: %v", i, obj)
			}
			limited++
		}
	}
	if limited < 4 || limited > 5 {
		t.Fatalf("%d calls rate limited, want the ones past LIM-C6 (about 5)", limited)
	}
}

// TestStopsExitZeroAndStopTheEgress: the end of input and SIGTERM both end
// serve with exit 0 and stop the egress it started once it had answered.
func TestStopsExitZeroAndStopTheEgress(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(*mcp.ClientSession, *exec.Cmd)
	}{
		{"end of input", func(cs *mcp.ClientSession, _ *exec.Cmd) { cs.Close() }},
		{"SIGTERM", func(_ *mcp.ClientSession, cmd *exec.Cmd) { cmd.Process.Signal(syscall.SIGTERM) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, cmd, stderr := session(t)
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			tc.stop(cs, cmd)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("exit: %v\n%s", err, stderr.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still running 20 s later")
			}
			checkEgressGone(t, stderr.String())
		})
	}
}

// TestNoHandshakeNoEgress: serve over stdio starts its egress once it has
// answered its first message (cold start); input that ends before leaves
// nothing to start or stop.
func TestNoHandshakeNoEgress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := rypsok(ctx, nil, "serve")
	cmd.Stdin = strings.NewReader("")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout carries more than MCP: %q", stdout.String())
	}
	if strings.Contains(stderr.String(), `"socket":"`) || strings.Contains(stderr.String(), "egress_failed") {
		t.Errorf("an egress started without a handshake:\n%s", stderr.String())
	}
}

// checkEgressGone reads the egress's socket from the logs and checks that
// its directory is gone.
func checkEgressGone(t *testing.T, logs string) {
	t.Helper()
	i := strings.Index(logs, `"socket":"`)
	if i < 0 {
		t.Fatalf("no egress socket in the logs:\n%s", logs)
	}
	sock := logs[i+len(`"socket":"`):]
	sock = sock[:strings.IndexByte(sock, '"')]
	if _, err := os.Stat(filepath.Dir(sock)); !os.IsNotExist(err) {
		t.Errorf("the egress directory %s is still there: %v", filepath.Dir(sock), err)
	}
	if !strings.Contains(logs, `"event":"egress_stopped"`) {
		t.Errorf("no egress_stopped line:\n%s", logs)
	}
}

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("config_version = 1\n[search]\nlanguages = [\"en\", \"ja\"]\n"), 0o600)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("config_version = 1\n[search]\ndeadline_ms = 100\n[engines.brave]\ntype = \"brave\"\napi_key = \"sk-123\"\n"), 0o600)
	for _, tc := range []struct {
		name     string
		env      []string
		args     []string
		code     int
		stdout   string
		stderrIn []string
	}{
		{"--version", nil, []string{"--version"}, 0, "rypsok ", nil},
		{"no command", nil, nil, 2, "", []string{"usage:"}},
		{"an unknown command", nil, []string{"frob"}, 2, "", []string{"unknown command"}},
		{"an unknown transport", nil, []string{"serve", "--transport", "carrier-pigeon"}, 2, "", []string{"unknown transport"}},
		{"check without a file", nil, []string{"check"}, 0, "no configuration file: the defaults: valid", nil},
		{"check of a valid file", nil, []string{"check", "--config", good}, 0, good + ": valid", nil},
		{"check through RYPSOK_CONFIG", []string{"RYPSOK_CONFIG=" + good}, []string{"check"}, 0, good + ": valid", nil},
		{"check of an invalid file names every problem", nil, []string{"check", "--config", bad}, 1, "",
			[]string{"search.deadline_ms", "inline secrets are refused"}},
		{"call engine_status", nil, []string{"call", "engine_status"}, 0, "{\n  \"outcome\": \"ok\"", nil},
		{"call with invalid arguments", nil, []string{"call", "web_search", `{"query": ""}`}, 1, "{\n  \"error\": {\n    \"kind\": \"invalid_request\"", nil},
		{"call of a tool not served", nil, []string{"call", "no_such_tool", `{}`}, 2, "", []string{"unknown tool"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := rypsok(context.Background(), tc.env, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if !strings.HasPrefix(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q, want it to start with %q", stdout.String(), tc.stdout)
			}
			for _, s := range tc.stderrIn {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
				}
			}
			if strings.Contains(stderr.String(), "sk-123") {
				t.Error("stderr repeats the inline secret")
			}
		})
	}
}

// TestRequestsWrittenBeforeEndOfInputAreAllAnswered writes requests and
// closes stdin at once, as a shell pipe does: every request is answered.
func TestRequestsWrittenBeforeEndOfInputAreAllAnswered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := rypsok(ctx, nil, "serve")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"engine_status","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"web_fetch","arguments":{"url":"http://169.254.169.254/"}}}`,
	}, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	for id := 1; id <= 4; id++ {
		if !strings.Contains(stdout.String(), fmt.Sprintf(`"id":%d,"result"`, id)) {
			t.Errorf("request %d unanswered:\n%s", id, stdout.String())
		}
	}
}

// TestLinesItCannotServeDoNotEndServe reproduces the attack on stdio: lines
// that are not JSON, or JSON that is no JSON-RPC message, written between
// valid requests. Each is answered with id null (-32700 or -32600), every
// request is answered, and rypsok exits 0 at the end of input. Before,
// the first such line ended it with exit 1.
func TestLinesItCannotServeDoNotEndServe(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	codes := map[int]int{}
	var ids []int
	for i, bad := range []struct {
		line string
		code int
	}{
		{"hello", -32700},
		{`{"jsonrpc":`, -32700},
		{"]", -32700},
		{"", -32700},
		{strings.Repeat("x", limits.H2BodyBytes), -32700},
		{"42", -32600},
		{"[]", -32600},
		{`{"foo":1}`, -32600},
	} {
		ids = append(ids, 10+i)
		lines = append(lines, bad.line, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 10+i))
		codes[bad.code]++
	}
	cmd := rypsok(ctx, nil, "serve")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	for _, id := range ids {
		if !strings.Contains(stdout.String(), fmt.Sprintf(`"id":%d,"result"`, id)) {
			t.Errorf("request %d unanswered", id)
		}
	}
	for code, want := range codes {
		if got := strings.Count(stdout.String(), fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":%d,`, code)); got != want {
			t.Errorf("%d answers with id null and code %d, want %d", got, code, want)
		}
	}
}
