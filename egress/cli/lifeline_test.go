package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rypsok/rypsok/egress/dnstest"
)

// TestTheLifeline: an egress given a lifeline serves until the parent
// closes it (dies), then drains, exits 0 and removes its socket, its
// configuration file beside it and their directory; a SIGTERM leaves the
// directory and the file to the parent, which restarts or removes them;
// anything else in the directory keeps it.
func TestTheLifeline(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stop     string // "lifeline" or "sigterm"
		extra    bool   // another file in the directory
		dirGone  bool
		fileGone bool
	}{
		{"the parent dies: everything goes", "lifeline", false, true, true},
		{"SIGTERM: the parent's files stay", "sigterm", false, false, false},
		{"the parent dies, the directory holds more: it stays", "lifeline", true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dns := dnstest.Start(t)
			dir := filepath.Join(t.TempDir(), "private")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			sock := filepath.Join(dir, "egress.sock")
			cfg := filepath.Join(dir, "egress.toml")
			os.WriteFile(cfg, []byte(fmt.Sprintf("config_version = 1\n[dns]\nservers = [%q]\n", dns.Addr)), 0o600)
			if tc.extra {
				os.WriteFile(filepath.Join(dir, "other"), nil, 0o600)
			}
			var p [2]int
			if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
				t.Fatal(err)
			}
			parentEnd := os.NewFile(uintptr(p[1]), "parent end")
			defer parentEnd.Close()

			ctx, sigterm := context.WithCancel(context.Background())
			defer sigterm()
			logs := &lineWatcher{ready: make(chan string, 1)}
			exited := make(chan int, 1)
			go func() {
				exited <- Main(ctx, []string{"--config", cfg, "--socket", sock, "--lifeline", strconv.Itoa(p[0])}, io.Discard, logs)
			}()
			select {
			case <-logs.ready:
			case code := <-exited:
				t.Fatalf("exited %d before ready: %s", code, logs)
			}
			if tc.stop == "lifeline" {
				parentEnd.Close()
			} else {
				sigterm()
			}
			select {
			case code := <-exited:
				if code != ExitOK {
					t.Errorf("exit %d, want 0; logs:\n%s", code, logs)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still serving 20 s after the stop")
			}
			if _, err := os.Lstat(sock); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the socket is left: %v", err)
			}
			for _, c := range []struct {
				what string
				path string
				gone bool
			}{{"the directory", dir, tc.dirGone}, {"the configuration file", cfg, tc.fileGone}} {
				if _, err := os.Lstat(c.path); errors.Is(err, fs.ErrNotExist) != c.gone {
					t.Errorf("%s: %v, want gone %v", c.what, err, c.gone)
				}
			}
			if got := strings.Contains(logs.String(), `"event":"parent_gone"`); got != (tc.stop == "lifeline") {
				t.Errorf("parent_gone logged %v; logs:\n%s", got, logs)
			}
		})
	}
}

func TestABadLifelineIsAUsageError(t *testing.T) {
	code, _, errs := runMain("--socket", filepath.Join(t.TempDir(), "s"), "--lifeline", "987")
	if code != ExitUsage || !strings.Contains(errs, "--lifeline 987") {
		t.Errorf("exit %d, stderr %q; want a usage error naming the lifeline", code, errs)
	}
}
