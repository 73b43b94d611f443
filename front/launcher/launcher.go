// Package launcher starts the rypsok-egress that rypsok uses in local mode,
// keeps it running, and stops it: one private socket in a fresh 0700
// directory, readiness by the egress's /healthz, restarts with backoff if
// it dies, and nothing left behind on exit.
//
// The launcher never stands between a call and the egress: while the
// egress is down (between a crash and its restart), a request sent to the
// socket fails at once (contract.Client returns an error wrapping
// contract.ErrEgressUnreachable, because nothing listens on the path) and
// never waits for the restart. A caller that would rather wait calls
// WaitReady with its own context first.
//
// The egress's standard input and output are /dev/null (rypsok's own may
// carry MCP over stdio); its standard error is forwarded to
// Options.Stderr. It runs in its own process group, so a terminal's Ctrl-C
// reaches rypsok alone and the launcher decides when the egress stops.
//
// Nothing is left behind when rypsok dies without Close either (SIGKILL, a
// crash): the egress holds a lifeline to rypsok (see spawn) and, when it
// breaks, drains and removes its socket, egress.toml and the directory
// itself. Should the egress die too before it could, the next Start removes
// the directories of dead rypsoks (staleDirs: ours by name, owner and
// mode, their recorded pid gone; a live process's directory is kept).
package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/limits"
)

// Defaults of Options.
const (
	DefaultReadyTimeout = 10 * time.Second
	DefaultMinBackoff   = 100 * time.Millisecond
	DefaultMaxBackoff   = 10 * time.Second
	DefaultStopTimeout  = limits.F4ResponseTime + 2*time.Second
)

// Names of the files in the launcher's directory.
const (
	socketName = "egress.sock"
	configName = "egress.toml"
)

// maxSocketPath is the longest Unix socket path Linux accepts (sun_path
// holds 108 bytes, the terminating NUL included).
const maxSocketPath = 107

var (
	// ErrBinaryNotFound is wrapped by Start when the rypsok-egress
	// executable cannot be found; the message says where it looked.
	ErrBinaryNotFound = errors.New("launcher: rypsok-egress executable not found")
	// ErrNotReady is wrapped by WaitReady when the egress did not become
	// ready: the context ended or Options.ReadyTimeout passed.
	ErrNotReady = errors.New("launcher: rypsok-egress not ready")
	// ErrClosed is returned by WaitReady once Close was called.
	ErrClosed = errors.New("launcher: closed")
)

// Options configure Start. The zero value of every field but Config has a
// default.
type Options struct {
	// Binary is the rypsok-egress executable: a path, or a name looked up
	// on PATH. "" means the file named rypsok-egress beside the running
	// executable (os.Executable), else exec.LookPath("rypsok-egress").
	Binary string
	// Config renders the egress configuration file for a socket path
	// (the front's config package supplies it). It is called once, by
	// Start. Nil means no configuration file: the egress's own defaults
	// (the strictest policy, DNS servers from /etc/resolv.conf). The
	// socket is also given on the command line (--socket), which wins
	// over the file's [listen] socket.
	Config func(socket string) ([]byte, error)
	// Stderr receives the egress's standard error (its JSON log lines)
	// unchanged, one Write per line. Nil discards them. A Write that
	// blocks stalls the egress's logging, as a blocked stderr would.
	Stderr io.Writer
	// Log receives the launcher's own events as lines with an "event"
	// field: egress_started, egress_ready, egress_not_ready,
	// egress_exited, egress_restarting, egress_start_failed,
	// egress_stopped, egress_stale_dir_removed. The zero Logger discards
	// them.
	Log zerolog.Logger
	// ReadyTimeout bounds how long the egress may stay not ready, from
	// Start or from the moment it went down, before WaitReady fails
	// without waiting; a process that has not shown readiness within
	// ReadyTimeout of its start is killed and restarted. Zero means
	// DefaultReadyTimeout (10 s).
	ReadyTimeout time.Duration
	// MinBackoff and MaxBackoff bound the delay before a restart: it
	// starts at MinBackoff and doubles after each restart, up to
	// MaxBackoff; a run that stayed up longer than MaxBackoff starts it
	// again at MinBackoff. Zero means DefaultMinBackoff (100 ms) and
	// DefaultMaxBackoff (10 s); a MaxBackoff below MinBackoff is raised
	// to MinBackoff.
	MinBackoff, MaxBackoff time.Duration
	// StopTimeout bounds the egress's drain after SIGTERM, when Close
	// stops it, before it is killed (SIGKILL). Zero means
	// DefaultStopTimeout (LIM-F4 + 2 s, the egress's own drain bound).
	StopTimeout time.Duration
}

// withDefaults returns o with its zero fields set.
func (o Options) withDefaults() Options {
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = DefaultReadyTimeout
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	if o.StopTimeout <= 0 {
		o.StopTimeout = DefaultStopTimeout
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	return o
}

// Egress is a rypsok-egress started by Start and supervised until Close.
// Its methods are safe for concurrent use.
type Egress struct {
	opts   Options // defaults applied
	bin    string  // absolute path of the executable
	dir    string  // the private directory
	socket string  // dir/egress.sock
	config string  // dir/egress.toml, "" without Options.Config

	stop      chan struct{} // closed by Close
	done      chan struct{} // closed when the supervisor has returned
	closeOnce sync.Once
	stopErr   error // set by the supervisor before done is closed
	closeErr  error

	mu        sync.Mutex
	ready     chan struct{} // closed while the current process is ready; replaced when it goes down
	downSince time.Time     // when the egress last stopped being ready (Start at first)
	pid       int           // the current process, 0 between runs
	lastExit  string        // how the last process ended, for WaitReady's errors
}

// Start removes the private directories dead rypsoks left (staleDirs),
// creates its own (mode 0700, its name recording this process's pid),
// writes the egress configuration there (mode 0600), starts
// rypsok-egress on the socket inside it, and returns at once, without
// waiting for readiness: use WaitReady. It fails when the executable
// cannot be found (ErrBinaryNotFound) or started, when Options.Config
// fails, or when the directory or the file cannot be written; it leaves
// nothing behind then.
func Start(opts Options) (*Egress, error) {
	opts = opts.withDefaults()
	bin, err := resolveBinary(opts.Binary)
	if err != nil {
		return nil, err
	}
	opts.removeStaleDirs()
	dir, err := newDir()
	if err != nil {
		return nil, fmt.Errorf("launcher: private directory: %w", err)
	}
	e := &Egress{
		opts:      opts,
		bin:       bin,
		dir:       dir,
		socket:    filepath.Join(dir, socketName),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
		ready:     make(chan struct{}),
		downSince: time.Now(),
	}
	if err := e.prepare(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	first := make(chan error, 1)
	go e.supervise(first)
	if err := <-first; err != nil {
		<-e.done
		os.RemoveAll(dir)
		return nil, err
	}
	return e, nil
}

// prepare checks the socket path and writes the configuration file.
func (e *Egress) prepare() error {
	if len(e.socket) > maxSocketPath {
		return fmt.Errorf("launcher: socket path %s is %d bytes, more than a Unix socket allows (%d): set TMPDIR to a shorter directory",
			e.socket, len(e.socket), maxSocketPath)
	}
	if e.opts.Config == nil {
		return nil
	}
	data, err := e.opts.Config(e.socket)
	if err != nil {
		return fmt.Errorf("launcher: egress configuration: %w", err)
	}
	path := filepath.Join(e.dir, configName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("launcher: egress configuration: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("launcher: egress configuration: %w", err)
	}
	e.config = path
	return nil
}

// Socket returns the path of the egress's Unix socket. It does not change
// across restarts.
func (e *Egress) Socket() string { return e.socket }

// WaitReady blocks until the egress answers on its socket, and returns nil
// at once while it does. While the egress is starting, or down and being
// restarted, it waits for the next readiness, and fails with an error
// wrapping ErrNotReady when ctx ends (the error wraps ctx's cause too) or
// when the egress has been not ready for Options.ReadyTimeout (at once if
// that has already happened, as with an egress that keeps crashing); the
// error says how the last process ended. After Close it returns ErrClosed.
func (e *Egress) WaitReady(ctx context.Context) error {
	select {
	case <-e.stop:
		return ErrClosed
	default:
	}
	e.mu.Lock()
	ready, downSince := e.ready, e.downSince
	e.mu.Unlock()
	select {
	case <-ready:
		return nil
	default:
	}
	left := e.opts.ReadyTimeout - time.Since(downSince)
	if left <= 0 {
		return e.notReady(fmt.Errorf("not ready for %v", e.opts.ReadyTimeout))
	}
	timer := time.NewTimer(left)
	defer timer.Stop()
	select {
	case <-ready:
		return nil
	case <-e.stop:
		return ErrClosed
	case <-ctx.Done():
		return e.notReady(context.Cause(ctx))
	case <-timer.C:
		return e.notReady(fmt.Errorf("not ready for %v", e.opts.ReadyTimeout))
	}
}

// notReady wraps ErrNotReady and why around how the last process ended.
func (e *Egress) notReady(why error) error {
	e.mu.Lock()
	last := e.lastExit
	e.mu.Unlock()
	if last == "" {
		return fmt.Errorf("%w: %w", ErrNotReady, why)
	}
	return fmt.Errorf("%w: %w (last run: %s)", ErrNotReady, why, last)
}

// Close stops the egress (SIGTERM, then SIGKILL if it has not exited
// within Options.StopTimeout), stops the supervision, waits for every
// goroutine the launcher started, and removes the directory. It reports
// an egress that had to be killed or a directory that could not be
// removed. Close is idempotent: later calls wait for the first and return
// its result.
func (e *Egress) Close() error {
	e.closeOnce.Do(func() {
		close(e.stop)
		<-e.done
		err := e.stopErr
		if rerr := os.RemoveAll(e.dir); rerr != nil {
			err = errors.Join(err, fmt.Errorf("launcher: removing %s: %w", e.dir, rerr))
		}
		e.closeErr = err
	})
	return e.closeErr
}
