package launcher

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Log field names and events.
const (
	fieldEvent   = "event"
	fieldPID     = "pid"
	fieldBinary  = "binary"
	fieldSocket  = "socket"
	fieldVia     = "via"
	fieldReadyMS = "ready_ms"
	fieldRanMS   = "ran_ms"
	fieldCode    = "code"
	fieldSignal  = "signal"
	fieldDelayMS = "delay_ms"
	fieldAttempt = "attempt"
	fieldDir     = "dir"

	eventStarted      = "egress_started"
	eventReady        = "egress_ready"
	eventNotReady     = "egress_not_ready"
	eventExited       = "egress_exited"
	eventRestarting   = "egress_restarting"
	eventStartFailed  = "egress_start_failed"
	eventStopped      = "egress_stopped"
	eventStaleRemoved = "egress_stale_dir_removed"
)

// stderrDrain bounds the wait, after the egress exited, for the rest of
// its standard error (only a descendant holding the pipe open delays EOF).
const stderrDrain = time.Second

// process is one run of the egress. Its goroutines (the waiter, the stderr
// reader and the /healthz poller) are waited for by finish.
type process struct {
	cmd      *exec.Cmd
	started  time.Time
	stderr   *os.File           // read end of the egress's standard error
	lifeline *os.File           // write end of the egress's lifeline, closed once it exited
	exited   chan struct{}      // closed when cmd.Wait has returned
	ready    chan struct{}      // closed when the egress showed it is ready
	once     sync.Once          // guards ready and via
	via      string             // how readiness was seen: "stderr" or "healthz"
	cancel   context.CancelFunc // stops the poller
	wg       sync.WaitGroup
	last     string // the last line of standard error; read after wg.Wait
}

// markReady records that the egress is ready, seen via via.
func (p *process) markReady(via string) {
	p.once.Do(func() {
		p.via = via
		close(p.ready)
	})
}

// supervise owns the egress: it starts it (reporting the first start on
// first), watches it, restarts it after unexpected exits, and stops it
// when Close closes e.stop.
func (e *Egress) supervise(first chan<- error) {
	defer close(e.done)

	p, err := e.spawn()
	first <- err
	if err != nil {
		return
	}
	b := backoff{min: e.opts.MinBackoff, max: e.opts.MaxBackoff}
	for attempt := 1; ; attempt++ {
		var ran time.Duration
		if p != nil {
			if e.watch(p) {
				return
			}
			ran = time.Since(p.started)
		}
		delay := b.next(ran)
		e.opts.Log.Info().Str(fieldEvent, eventRestarting).Float64(fieldDelayMS, ms(delay)).Int(fieldAttempt, attempt).Send()
		timer := time.NewTimer(delay)
		select {
		case <-e.stop:
			timer.Stop()
			e.opts.Log.Info().Str(fieldEvent, eventStopped).Send()
			return
		case <-timer.C:
		}
		if p, err = e.spawn(); err != nil {
			e.setLastExit(err.Error())
			e.opts.Log.Error().Str(fieldEvent, eventStartFailed).Err(err).Send()
		}
	}
}

// lifelineFD is the lifeline's descriptor in the egress: the first of
// exec.Cmd's ExtraFiles.
const lifelineFD = 3

// spawn starts one run of the egress.
//
// The egress learns that rypsok died through a lifeline (--lifeline): a
// pipe whose read end it inherits and whose only write end rypsok holds
// (close-on-exec, so no other child carries it). However rypsok dies,
// SIGKILL included, the kernel closes the write end and the egress reads
// end of file, drains, and removes the socket, egress.toml and the private
// directory, which a dead rypsok cannot. This replaces Linux's parent-death
// signal (Pdeathsig), which is weaker on every count: it fires when the
// thread that forked the child ends, not the process, so the supervisor
// had to pin one OS thread for its whole life; it exists on Linux only; it
// is cleared across a set-uid exec; and a SIGTERM cannot tell the egress
// "your parent is gone, clean up after it" from an ordinary stop.
func (e *Egress) spawn() (*process, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("launcher: stderr pipe: %w", err)
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("launcher: lifeline pipe: %w", err)
	}
	var args []string
	if e.config != "" {
		args = append(args, "--config", e.config)
	}
	args = append(args, "--socket", e.socket, "--lifeline", strconv.Itoa(lifelineFD))
	cmd := exec.Command(e.bin, args...)
	cmd.Stderr = w // stdin and stdout stay nil: /dev/null
	cmd.ExtraFiles = []*os.File{lifeR}
	cmd.SysProcAttr = sysProcAttr()
	err = cmd.Start()
	w.Close()
	lifeR.Close()
	if err != nil {
		r.Close()
		lifeW.Close()
		return nil, fmt.Errorf("launcher: starting %s: %w", e.bin, err)
	}
	p := &process{
		cmd:      cmd,
		started:  time.Now(),
		stderr:   r,
		lifeline: lifeW,
		exited:   make(chan struct{}),
		ready:    make(chan struct{}),
	}
	e.mu.Lock()
	e.pid = cmd.Process.Pid
	e.mu.Unlock()
	e.opts.Log.Info().Str(fieldEvent, eventStarted).Int(fieldPID, cmd.Process.Pid).
		Str(fieldBinary, e.bin).Str(fieldSocket, e.socket).Send()
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.wg.Add(3)
	go func() {
		defer p.wg.Done()
		cmd.Wait() // the exit status is read from cmd.ProcessState
		close(p.exited)
	}()
	go func() {
		defer p.wg.Done()
		p.last = forwardStderr(r, e.opts.Stderr, p.markReady)
	}()
	go func() {
		defer p.wg.Done()
		pollHealthz(ctx, e.socket, p.markReady)
	}()
	return p, nil
}

// watch follows p until it exits. It reports whether Close stopped it.
func (e *Egress) watch(p *process) (stopped bool) {
	pid := p.cmd.Process.Pid
	ready := p.ready
	readyTimer := time.NewTimer(e.opts.ReadyTimeout)
	defer readyTimer.Stop()
	for {
		select {
		case <-ready:
			ready = nil
			readyTimer.Stop()
			p.cancel()
			e.mu.Lock()
			close(e.ready)
			e.mu.Unlock()
			e.opts.Log.Info().Str(fieldEvent, eventReady).Int(fieldPID, pid).Str(fieldVia, p.via).
				Float64(fieldReadyMS, ms(time.Since(p.started))).Send()
		case <-readyTimer.C:
			e.opts.Log.Error().Str(fieldEvent, eventNotReady).Int(fieldPID, pid).
				Float64(fieldRanMS, ms(time.Since(p.started))).Msg("killing an egress that did not become ready")
			p.cmd.Process.Kill()
		case <-p.exited:
			e.finish(p)
			e.logExit(p, "exited unexpectedly")
			return false
		case <-e.stop:
			e.terminate(p)
			e.finish(p)
			e.logExit(p, "")
			e.opts.Log.Info().Str(fieldEvent, eventStopped).Send()
			return true
		}
	}
}

// terminate stops p: SIGTERM, then SIGKILL after Options.StopTimeout.
func (e *Egress) terminate(p *process) {
	p.cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(e.opts.StopTimeout)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		p.cmd.Process.Kill()
		<-p.exited
		e.stopErr = fmt.Errorf("launcher: rypsok-egress (pid %d) did not stop within %v of SIGTERM: killed", p.cmd.Process.Pid, e.opts.StopTimeout)
	}
}

// finish waits for p's goroutines once it has exited, removes a socket it
// left behind, and marks the egress down.
func (e *Egress) finish(p *process) {
	p.cancel()
	p.stderr.SetReadDeadline(time.Now().Add(stderrDrain))
	p.wg.Wait()
	p.stderr.Close()
	p.lifeline.Close()
	removeStaleSocket(e.socket)
	exit := describeExit(p.cmd.ProcessState, p.last)
	e.mu.Lock()
	select {
	case <-e.ready: // it was ready: waiters wait for the next run
		e.ready = make(chan struct{})
		e.downSince = time.Now()
	default:
	}
	e.pid = 0
	e.lastExit = exit
	e.mu.Unlock()
}

// logExit logs how p ended; msg, when set, marks an unexpected exit.
func (e *Egress) logExit(p *process, msg string) {
	st := p.cmd.ProcessState
	ev := e.opts.Log.Info()
	if msg != "" {
		ev = e.opts.Log.Error()
	}
	ev = ev.Str(fieldEvent, eventExited).Int(fieldPID, st.Pid()).Int(fieldCode, st.ExitCode()).
		Float64(fieldRanMS, ms(time.Since(p.started)))
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		ev = ev.Str(fieldSignal, ws.Signal().String())
	}
	ev.Msg(msg)
}

// setLastExit records how the last attempt ended.
func (e *Egress) setLastExit(s string) {
	e.mu.Lock()
	e.lastExit = s
	e.mu.Unlock()
}

// currentPID returns the pid of the running egress, 0 between runs.
func (e *Egress) currentPID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pid
}

// describeExit says how a process ended, with its last stderr line.
func describeExit(st *os.ProcessState, last string) string {
	s := st.String()
	if last != "" {
		s += fmt.Sprintf(", last stderr line %q", last)
	}
	return s
}

// removeStaleSocket removes the socket at path, if there is one: the
// egress's process has exited, so nothing listens on it.
func removeStaleSocket(path string) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Type() != fs.ModeSocket {
		return
	}
	os.Remove(path)
}

// ms returns d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
