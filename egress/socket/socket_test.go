package socket

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestListenCreatesASocketOnlyItsOwnerCanUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "egress.sock")
	ln, err := Listen(path, -1)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("mode %v, want 0600", got)
	}
	ln.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("closing left the socket behind: %v", err)
	}
}

func TestListenWithAGroupGivesTheGroupAccess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "egress.sock")
	ln, err := Listen(path, os.Getgid())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o660 {
		t.Errorf("mode %v, want 0660", got)
	}
}

func TestListenRefusesALiveSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "egress.sock")
	ln, err := Listen(path, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := Listen(path, -1); !errors.Is(err, ErrInUse) {
		t.Fatalf("got %v, want ErrInUse", err)
	}
}

func TestListenReplacesAStaleSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "egress.sock")
	old, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	old.(*net.UnixListener).SetUnlinkOnClose(false)
	old.Close() // the file stays; nothing answers
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("stale socket missing: %v", err)
	}
	ln, err := Listen(path, -1)
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	ln.Close()
}

func TestListenNeverRemovesAnotherKindOfFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "egress.sock")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path, -1); err == nil {
		t.Fatal("want an error")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "keep me" {
		t.Fatalf("file changed: %q %v", b, err)
	}
}

// TestListenCreatesTheSocketsDirectory: an egress whose socket directory
// did not exist once failed to start. Listen creates that directory, the
// last one only, 0700 (0750 with the socket's group, whatever the umask),
// and refuses, naming the path, what it cannot use.
func TestListenCreatesTheSocketsDirectory(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name string
		gid  int
		mode fs.FileMode
	}{
		{"without a group", -1, 0o700},
		{"with a group", os.Getgid(), 0o750},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			ln, err := Listen(filepath.Join(dir, "egress.sock"), tc.gid)
			if err != nil {
				t.Fatal(err)
			}
			ln.Close()
			fi, err := os.Lstat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !fi.IsDir() || fi.Mode().Perm() != tc.mode {
				t.Errorf("directory mode %v, want a directory of mode %v", fi.Mode(), tc.mode)
			}
			if st := fi.Sys().(*syscall.Stat_t); tc.gid >= 0 && int(st.Gid) != tc.gid {
				t.Errorf("directory group %d, want %d", st.Gid, tc.gid)
			}
		})
	}
}

func TestListenRefusesASocketDirectoryItCannotUse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"its parent is missing", dir + "/no/such/egress.sock", "socket: the socket's directory " + dir + "/no/such does not exist and cannot be created (only its last directory is created): mkdir " + dir + "/no/such: no such file or directory"},
		{"it is a file", file + "/egress.sock", "socket: the socket's directory " + file + " exists and is not a directory"},
		{"it is a symbolic link", dir + "/link/egress.sock", "socket: the socket's directory " + dir + "/link is a symbolic link: name the directory it points to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := Listen(tc.path, -1)
			if err == nil {
				ln.Close()
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("got  %q\nwant %q", err, tc.want)
			}
			if err := Check(tc.path); err == nil {
				t.Error("Check finds no problem")
			}
		})
	}
	if entries, _ := os.ReadDir(target); len(entries) > 0 {
		t.Errorf("a socket was made through the link: %v", entries)
	}
	if _, err := os.Lstat(dir + "/no"); !os.IsNotExist(err) {
		t.Errorf("a parent was created: %v", err)
	}
}
