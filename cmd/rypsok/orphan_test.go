package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAKilledFrontLeavesNothingBehind reproduces issue 15's finding: after
// rypsok serve was killed (SIGKILL), its egress's private directory and
// egress.toml stayed in the temporary directory. Now the egress, its
// lifeline to rypsok broken, drains, exits and removes them; and a
// directory a dead rypsok left anyway is removed when the next rypsok
// starts its egress, while one whose owner lives is kept.
func TestAKilledFrontLeavesNothingBehind(t *testing.T) {
	tmp, err := os.MkdirTemp("", "k") // short: the socket path must fit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	staleDir := leftover(t, tmp, dead.Process.Pid) // its rypsok is gone
	liveDir := leftover(t, tmp, os.Getpid())       // this test is alive

	cmd := rypsok(context.Background(), []string{"TMPDIR=" + tmp}, "serve")
	transport := stdioTransport(t, cmd)
	p := startRypsok(t, cmd)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, p.logs)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil { // starts the egress
		t.Fatal(err)
	}
	p.waitLog(t, 20*time.Second, `"event":"egress_ready"`)
	var started struct {
		PID    int    `json:"pid"`
		Socket string `json:"socket"`
	}
	if err := json.Unmarshal([]byte(p.waitLog(t, time.Second, `"event":"egress_started"`)), &started); err != nil || started.PID == 0 {
		t.Fatalf("egress_started line: %+v %v", started, err)
	}
	dir := filepath.Dir(started.Socket)
	if _, err := os.Lstat(staleDir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory of a dead rypsok is left at start: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(liveDir, "egress.toml")); err != nil {
		t.Errorf("the directory of a live process was touched: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "egress.toml")); err != nil || filepath.Dir(dir) != tmp {
		t.Fatalf("the egress's directory %s (in %s): %v", dir, tmp, err)
	}

	// As a subreaper, this process inherits the egress once rypsok is
	// dead, and learns how it ended.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	defer syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL: rypsok cleans nothing up
		t.Fatal(err)
	}
	<-p.exited
	cs.Close()
	waited := make(chan error, 1)
	var ws syscall.WaitStatus
	go func() {
		_, err := syscall.Wait4(started.PID, &ws, 0, nil)
		waited <- err
	}()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("waiting for the orphaned egress (pid %d): %v", started.PID, err)
		}
	case <-time.After(30 * time.Second): // it drains first: LIM-F4 + 2 s at most
		syscall.Kill(started.PID, syscall.SIGKILL)
		<-waited
		t.Fatalf("the egress (pid %d) outlived rypsok by 30 s", started.PID)
	}
	// A drain ends with exit 0; a write to the stderr rypsok no longer
	// reads must not kill it (SIGPIPE) before it has cleaned up.
	if !ws.Exited() || ws.ExitStatus() != 0 {
		t.Errorf("the orphaned egress ended with %#x, want exit status 0", uint32(ws))
	}
	if left, err := os.ReadDir(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the egress's directory %s is left, holding %v (%v)", dir, left, err)
	}
	if !strings.Contains(p.logs.String(), `"event":"egress_stale_dir_removed"`) {
		t.Errorf("no egress_stale_dir_removed line:\n%s", p.logs)
	}
}

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// leftover makes a private directory as a rypsok of pid would have left
// it in tmp, with its egress.toml.
func leftover(t *testing.T, tmp string, pid int) string {
	t.Helper()
	dir := filepath.Join(tmp, fmt.Sprintf("rypsok-egress-%d-1", pid))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "egress.toml"), []byte("config_version = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}
