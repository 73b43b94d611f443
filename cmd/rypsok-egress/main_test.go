package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rypsok/rypsok/egress/dnstest"
	"github.com/rypsok/rypsok/shared/contract"
)

// TestBinaryServesAndStopsOnSIGTERM builds the binary, starts it with a
// configuration file, sends a request through its socket, and stops it
// with SIGTERM: it must exit 0 and remove its socket.
func TestBinaryServesAndStopsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "rypsok-egress")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dns := dnstest.Start(t)
	sock := filepath.Join(dir, "egress.sock")
	cfg := filepath.Join(dir, "egress.toml")
	os.WriteFile(cfg, []byte("config_version = 1\n[listen]\nsocket = \""+sock+"\"\n[dns]\nservers = [\""+dns.Addr+"\"]\n"), 0o600)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--config", cfg)
	cmd.Env = append(os.Environ(), "HTTPS_PROXY=http://127.0.0.1:1", "HTTP_PROXY=http://127.0.0.1:1")
	stderr, _ := cmd.StderrPipe()
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() && !strings.Contains(lines.Text(), `"event":"ready"`) {
	}
	rest := make(chan string, 1)
	go func() {
		var b strings.Builder
		for lines.Scan() {
			b.WriteString(lines.Text() + "\n")
		}
		rest <- b.String()
	}()

	client := &http.Client{Transport: &contract.Client{Socket: sock}}
	dns.Set(t, "lo.test. 60 IN A 127.0.0.1")
	resp, err := client.Get("https://lo.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if r, _ := contract.RefusalOf(resp); r != contract.ReasonNetwork {
		t.Errorf("a name of loopback: got %d %q, want network", resp.StatusCode, r)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	logs := <-rest
	if err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, logs)
	}
	if stdout.Len() != 0 {
		t.Errorf("wrote to stdout: %q", stdout.String())
	}
	if !strings.Contains(logs, `"decision":"refuse","reason":"network"`) || !strings.Contains(logs, `"event":"stopped"`) {
		t.Errorf("logs lack the decision or stopped lines:\n%s", logs)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
}
