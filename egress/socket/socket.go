// Package socket creates the Unix socket rypsok-egress listens on: mode
// 0600 from its creation (0660 with a group), never on top of a live
// socket, replacing a stale one, and never removing anything that is not a
// socket.
package socket

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"syscall"
	"time"
)

// ErrInUse is returned when another process answers on the socket path.
var ErrInUse = errors.New("socket: a live socket is already at the path")

// probeTimeout bounds the check for a live socket.
const probeTimeout = time.Second

// Listen listens on a Unix socket at path. gid < 0 leaves the socket
// 0600 and owned by the process's group; otherwise the socket is given
// that group and mode 0660. A stale socket at path (nothing answers) is
// replaced; a live one or a file of another type is an error. Closing the
// listener removes the socket.
func Listen(path string, gid int) (net.Listener, error) {
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
