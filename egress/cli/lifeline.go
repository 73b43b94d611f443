package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// The lifeline (--lifeline FD) is how an egress started by rypsok learns
// that rypsok is gone, whatever killed it: FD is the read end of a pipe
// whose only write end rypsok holds. The kernel closes a dead process's
// descriptors, SIGKILL included, so the read sees end of file; the egress
// then drains like on SIGTERM and removes what rypsok had made for it in
// its private directory (removeOwned), which rypsok can no longer do.

// errParentGone is the cause of serving's end when the lifeline reached
// end of file.
var errParentGone = errors.New("the lifeline closed: the parent is gone")

// watchParent returns a context that ends, with cause errParentGone, when
// the lifeline fd reads end of file (or fails: an unusable lifeline is as
// good as a dead parent), and a func that stops watching and closes fd.
// fd < 0 watches nothing.
func watchParent(ctx context.Context, fd int) (context.Context, func(), error) {
	if fd < 0 {
		return ctx, func() {}, nil
	}
	// Non-blocking, so that the runtime's poller reads it and closing the
	// file ends a pending read.
	if err := syscall.SetNonblock(fd, true); err != nil {
		return ctx, nil, fmt.Errorf("--lifeline %d: %w", fd, err)
	}
	f := os.NewFile(uintptr(fd), "lifeline")
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := io.Copy(io.Discard, f)
		if !errors.Is(err, os.ErrClosed) { // closed by stop: serving ended first
			cancel(errParentGone)
		}
	}()
	stop := func() {
		f.Close()
		<-done
		cancel(nil)
	}
	return ctx, stop, nil
}

// parentGone reports whether ctx ended because the lifeline closed.
func parentGone(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errParentGone)
}

// removeOwned removes what the parent made for this egress in its private
// directory, once the parent is gone: the socket (if the listener did not
// already), the configuration file when it lies in the socket's directory,
// and that directory when nothing else is left in it. Nothing is followed
// (a link is removed as a link) and a directory that still holds anything
// stays, so a wrong path given with --lifeline can cost at most the socket
// and that file.
func removeOwned(socketPath, configPath string) error {
	dir := filepath.Dir(socketPath)
	var errs []error
	if fi, err := os.Lstat(socketPath); err == nil && fi.Mode().Type() == fs.ModeSocket {
		errs = append(errs, removeIfThere(socketPath))
	}
	if configPath != "" && filepath.Dir(configPath) == dir {
		if fi, err := os.Lstat(configPath); err == nil && fi.Mode().IsRegular() {
			errs = append(errs, removeIfThere(configPath))
		}
	}
	errs = append(errs, removeIfThere(dir)) // rmdir: fails while anything else is in it
	return errors.Join(errs...)
}

// removeIfThere removes path; a path already gone is no error.
func removeIfThere(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
