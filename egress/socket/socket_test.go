package socket

import (
	"errors"
	"net"
	"os"
	"path/filepath"
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
