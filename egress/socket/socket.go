// Package socket creates the Unix socket rypsok-egress listens on: mode
// 0600 from its creation (0660 with a group), in a directory it creates
// when missing, never on top of a live socket, replacing a stale one, and
// never removing anything that is not a socket. Check says beforehand
// whether Listen would refuse a path.
package socket

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrInUse is returned when another process answers on the socket path.
var ErrInUse = errors.New("socket: a live socket is already at the path")

// probeTimeout bounds the check for a live socket.
const probeTimeout = time.Second

// Listen listens on a Unix socket at path. gid < 0 leaves the socket
// 0600 and owned by the process's group; otherwise the socket is given
// that group and mode 0660. The socket's directory is created when it
// does not exist (makeDir): that directory only, never its parents. A
// stale socket at path (nothing answers) is replaced; a live one or a
// file of another type is an error. Closing the listener removes the
// socket, not the directory.
func Listen(path string, gid int) (net.Listener, error) {
	if err := makeDir(filepath.Dir(path), gid); err != nil {
		return nil, err
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(true)
	if gid >= 0 {
		if err := os.Chown(path, -1, gid); err != nil {
			ln.Close()
			return nil, fmt.Errorf("socket: %w", err)
		}
		if err := os.Chmod(path, 0o660); err != nil {
			ln.Close()
			return nil, fmt.Errorf("socket: %w", err)
		}
	}
	return ln, nil
}

// removeStale removes a stale socket at path.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("socket: %s exists and is not a socket", path)
	}
	conn, err := net.DialTimeout("unix", path, probeTimeout)
	if err == nil {
		conn.Close()
		return fmt.Errorf("%w: %s", ErrInUse, path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("socket: %w", err)
	}
	return nil
}

// Modes of the socket's directory when Listen creates it. Without a
// group only the egress's user reaches the socket (0600), and the
// directory adds nothing but hiding the name: 0700. With a group, the
// group's members must be able to search the directory to connect to the
// 0660 socket, but not to write in it, where they could remove or replace
// the socket: 0750, and the directory gets the socket's group. Others
// get nothing: they have no business there.
const (
	dirMode      = 0o700
	dirModeGroup = 0o750
)

// makeDir creates dir, the socket's directory, when it does not exist,
// with dirMode (dirModeGroup and group gid when gid >= 0). Only dir
// itself is created, never a parent, and a symbolic link is never
// followed: a dir that is a link is refused, and the new directory's
// mode and group are set through a descriptor opened without following
// one. An existing directory is the operator's (a volume, systemd's
// RuntimeDirectory): it is used as it is.
func makeDir(dir string, gid int) error {
	fi, err := os.Lstat(dir)
	if err == nil {
		return isDir(dir, fi)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("socket: %w", err)
	}
	mode := uint32(dirMode)
	if gid >= 0 {
		mode = dirModeGroup
	}
	if err := os.Mkdir(dir, fs.FileMode(mode)); err != nil {
		if errors.Is(err, fs.ErrExist) { // made meanwhile: judge what is there
			return makeDir(dir, -1)
		}
		return fmt.Errorf("socket: the socket's directory %s does not exist and cannot be created (only its last directory is created): %w", dir, err)
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %s: %w", dir, err)
	}
	defer syscall.Close(fd)
	if gid >= 0 {
		if err := syscall.Fchown(fd, -1, gid); err != nil {
			return fmt.Errorf("socket: giving %s group %d: %w", dir, gid, err)
		}
	}
	// The umask may have narrowed the mode given to mkdir.
	if err := syscall.Fchmod(fd, mode); err != nil {
		return fmt.Errorf("socket: %s: %w", dir, err)
	}
	return nil
}

// isDir reports, as an error, when fi (dir's own, not followed) is not a
// directory.
func isDir(dir string, fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return nil
	case fi.Mode().Type() == fs.ModeSymlink:
		return fmt.Errorf("socket: the socket's directory %s is a symbolic link: name the directory it points to", dir)
	}
	return fmt.Errorf("socket: the socket's directory %s exists and is not a directory", dir)
}

// Check reports what Listen would refuse at path, creating nothing: a
// directory that is not one, or that is missing and cannot be created
// (its parent is missing, not a directory, or not writable by this
// process's user), and a file of another kind than a socket at path. A
// socket at path, live or stale, is no problem: Listen replaces a stale
// one, and a live one is the egress that a configuration being checked
// will replace.
func Check(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Lstat(dir)
	switch {
	case err == nil:
		if err := isDir(dir, fi); err != nil {
			return err
		}
		if err := syscall.Access(dir, writeSearch); err != nil {
			return fmt.Errorf("socket: the socket's directory %s is not writable by this user (uid %d): %w", dir, os.Getuid(), err)
		}
	case errors.Is(err, fs.ErrNotExist):
		return canCreate(dir)
	default:
		return fmt.Errorf("socket: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("socket: %s exists and is not a socket", path)
	}
	return nil
}

// writeSearch is access(2)'s W_OK|X_OK: what creating a file in a
// directory takes.
const writeSearch = 0x2 | 0x1

// canCreate reports, as an error, when makeDir could not create dir.
func canCreate(dir string) error {
	parent := filepath.Dir(dir)
	const cannot = "socket: the socket's directory %s does not exist and cannot be created (only its last directory is created): "
	fi, err := os.Stat(parent)
	switch {
	case err != nil:
		return fmt.Errorf(cannot+"%w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf(cannot+"%s is not a directory", dir, parent)
	}
	if err := syscall.Access(parent, writeSearch); err != nil {
		return fmt.Errorf(cannot+"%s is not writable by this user (uid %d)", dir, parent, os.Getuid())
	}
	return nil
}
