package launcher

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStaleDirs: only a directory that is ours by name, a real directory
// of mode 0700 owned by our uid, whose recorded owner is dead, is stale.
func TestStaleDirs(t *testing.T) {
	self := os.Getpid()
	for _, tc := range []struct {
		name     string
		entry    string      // its name in the temporary directory
		kind     fs.FileMode // fs.ModeDir, fs.ModeSymlink (to a 0700 directory) or 0 (a file)
		mode     fs.FileMode
		otherUID bool // judged for another uid than the entry's owner
		alive    bool // what the liveness check says of the recorded pid
		stale    bool
	}{
		{"a dead owner's directory is stale", "rypsok-egress-4242-123", fs.ModeDir, 0o700, false, false, true},
		{"a live owner's directory is kept", "rypsok-egress-4242-123", fs.ModeDir, 0o700, false, true, false},
		{"this process's own directory is kept", fmt.Sprintf("rypsok-egress-%d-123", self), fs.ModeDir, 0o700, false, false, false},
		{"another user's directory is kept", "rypsok-egress-4242-123", fs.ModeDir, 0o700, true, false, false},
		{"a symbolic link named like ours is not followed", "rypsok-egress-4242-123", fs.ModeSymlink, 0o700, false, false, false},
		{"a file named like ours is kept", "rypsok-egress-4242-123", 0, 0o600, false, false, false},
		{"a directory of another mode is kept", "rypsok-egress-4242-123", fs.ModeDir, 0o755, false, false, false},
		{"a name without a pid (older releases) is kept", "rypsok-egress-123456789", fs.ModeDir, 0o700, false, false, false},
		{"a pid with letters is not ours", "rypsok-egress-42a-123", fs.ModeDir, 0o700, false, false, false},
		{"a suffix with letters is not ours", "rypsok-egress-4242-12x", fs.ModeDir, 0o700, false, false, false},
		{"pid 0 is not ours", "rypsok-egress-0-123", fs.ModeDir, 0o700, false, false, false},
		{"another prefix is not ours", "rypsok-egres-4242-123", fs.ModeDir, 0o700, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			path := filepath.Join(parent, tc.entry)
			switch tc.kind {
			case fs.ModeDir:
				mkdir(t, path, tc.mode)
			case fs.ModeSymlink:
				target := filepath.Join(t.TempDir(), "target")
				mkdir(t, target, tc.mode)
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
			default:
				if err := os.WriteFile(path, nil, tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			uid := os.Getuid()
			if tc.otherUID {
				uid++
			}
			got := staleDirs(parent, uid, func(int) bool { return tc.alive })
			if want := tc.stale; (len(got) == 1 && got[0] == path) != want || len(got) > 1 {
				t.Errorf("staleDirs = %q, want stale %v", got, want)
			}
		})
	}
}

// TestStartRemovesTheDirectoriesOfDeadRypsoks: a private directory left
// by a rypsok that died (its egress dead too) is removed at the next
// Start, with what it holds; one whose rypsok lives is kept.
func TestStartRemovesTheDirectoriesOfDeadRypsoks(t *testing.T) {
	tmp, err := os.MkdirTemp("", "st") // short: the socket path must fit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMPDIR", tmp)

	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := exec.Command(hangBin)
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		live.Process.Kill()
		live.Wait()
	})
	deadDir := filepath.Join(tmp, fmt.Sprintf("%s%d-1", dirPrefix, dead.Process.Pid))
	liveDir := filepath.Join(tmp, fmt.Sprintf("%s%d-2", dirPrefix, live.Process.Pid))
	for _, dir := range []string{deadDir, liveDir} {
		mkdir(t, dir, 0o700)
		if err := os.WriteFile(filepath.Join(dir, configName), []byte(minimalConfig), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	rec := newLogRecorder()
	e := start(t, Options{Log: rec.logger()})
	if _, err := os.Lstat(deadDir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dead rypsok's directory is left: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(liveDir, configName)); err != nil {
		t.Errorf("the live rypsok's directory was touched: %v", err)
	}
	own := filepath.Base(filepath.Dir(e.Socket()))
	if pid, ok := ownerPID(own); !ok || pid != os.Getpid() {
		t.Errorf("the new directory %s does not record this pid (%d)", own, os.Getpid())
	}
	removed := rec.named(eventStaleRemoved)
	if len(removed) != 1 || removed[0][fieldDir] != deadDir {
		t.Errorf("%s events %v, want one for %s", eventStaleRemoved, removed, deadDir)
	}
	entries, _ := os.ReadDir(tmp)
	var names []string
	for _, ent := range entries {
		names = append(names, ent.Name())
	}
	if want := []string{filepath.Base(liveDir), own}; !slices.Equal(sortedCopy(names), sortedCopy(want)) {
		t.Errorf("left in TMPDIR: %s, want %s", strings.Join(names, " "), strings.Join(want, " "))
	}
}

func mkdir(t *testing.T, path string, mode fs.FileMode) {
	t.Helper()
	if err := os.Mkdir(path, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
