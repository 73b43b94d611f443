package launcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rypsok/rypsok/shared/contract"
)

func TestStartServesHealthzFromAPrivateDirectory(t *testing.T) {
	var rendered string
	stderr := &lineWriter{}
	e := start(t, Options{
		Config: func(socket string) ([]byte, error) {
			rendered = socket
			return []byte(minimalConfig), nil
		},
		Stderr: stderr,
	})
	waitReady(t, e)

	if rendered != e.Socket() {
		t.Errorf("Config was given %q, want the socket %q", rendered, e.Socket())
	}
	if status, body := getHealthz(t, e.Socket()); status != 200 || body != "ok" {
		t.Errorf("healthz: got %d %q, want 200 ok", status, body)
	}
	for _, tc := range []struct {
		name string
		path string
		mode fs.FileMode
	}{
		{"the directory", filepath.Dir(e.Socket()), fs.ModeDir | 0o700},
		{"the socket", e.Socket(), fs.ModeSocket | 0o600},
		{"the configuration file", filepath.Join(filepath.Dir(e.Socket()), configName), 0o600},
	} {
		fi, err := os.Lstat(tc.path)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		} else if got := fi.Mode() & (fs.ModeType | fs.ModePerm); got != tc.mode {
			t.Errorf("%s: mode %v, want %v", tc.name, got, tc.mode)
		}
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(e.Socket()), configName))
	if err != nil || string(data) != minimalConfig {
		t.Errorf("configuration file: got %q %v, want what Config rendered", data, err)
	}
	if err := e.WaitReady(context.Background()); err != nil {
		t.Errorf("WaitReady once ready: %v", err)
	}
	// The egress's stderr arrives whole lines at a time, its ready line
	// among them. Readiness may have been seen by polling /healthz before
	// the line was forwarded: wait for it, bounded.
	writes := stderr.waitFor(t, `"event":"ready"`, `"service":"rypsok-egress"`)
	readyLine := false
	for _, w := range writes {
		if !strings.HasSuffix(w, "\n") || strings.Count(w, "\n") != 1 {
			t.Errorf("a Write of the egress's stderr is not one line: %q", w)
		}
		readyLine = readyLine || strings.Contains(w, `"event":"ready"`) && strings.Contains(w, `"service":"rypsok-egress"`)
	}
	if !readyLine {
		t.Errorf("the egress's ready line was not forwarded: %q", writes)
	}
}

func TestReadinessIsSeenOnStderrOrByPollingHealthz(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string
		via    string
	}{
		{"an egress logging at info announces itself", minimalConfig, "stderr"},
		{"an egress logging only warnings is polled", minimalConfig + "[logging]\nlevel = \"warn\"\n", "healthz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newLogRecorder()
			e := start(t, Options{
				Config: func(string) ([]byte, error) { return []byte(tc.config), nil },
				Log:    rec.logger(),
			})
			waitReady(t, e)
			ev := rec.waitFor(t, eventReady, 1)[0]
			if ev[fieldVia] != tc.via {
				t.Errorf("ready via %v, want %s", ev[fieldVia], tc.via)
			}
			if status, _ := getHealthz(t, e.Socket()); status != 200 {
				t.Errorf("healthz: %d", status)
			}
		})
	}
}

func TestNilConfigRunsTheEgressOnItsDefaults(t *testing.T) {
	if _, err := os.Stat("/etc/resolv.conf"); err != nil {
		t.Skip("the egress's defaults need /etc/resolv.conf")
	}
	e, err := Start(Options{Binary: egressBin})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	waitReady(t, e)
	if _, err := os.Stat(filepath.Join(filepath.Dir(e.Socket()), configName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a configuration file was written: %v", err)
	}
}

func TestCloseStopsTheEgressAndRemovesTheDirectory(t *testing.T) {
	rec := newLogRecorder()
	e := start(t, Options{Log: rec.logger()})
	waitReady(t, e)
	pid := e.currentPID()
	if pid == 0 || processGone(pid) {
		t.Fatalf("no running egress (pid %d)", pid)
	}

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = e.Close() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Close %d: %v", i, err)
		}
	}
	if !processGone(pid) {
		t.Errorf("the egress (pid %d) is still running", pid)
	}
	if _, err := os.Stat(filepath.Dir(e.Socket())); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory is left: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	if err := e.WaitReady(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("WaitReady after Close: %v, want ErrClosed", err)
	}
	exited := rec.waitFor(t, eventExited, 1)[0]
	if exited[fieldCode] != 0.0 {
		t.Errorf("after SIGTERM the egress exited with %v, want 0 (a drain)", exited[fieldCode])
	}
	rec.waitFor(t, eventStopped, 1)
}

func TestCloseBeforeReadyStopsTheEgress(t *testing.T) {
	e := start(t, Options{})
	pid := e.currentPID()
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if pid == 0 || !processGone(pid) {
		t.Errorf("the egress (pid %d) is still running", pid)
	}
	if _, err := os.Stat(filepath.Dir(e.Socket())); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory is left: %v", err)
	}
}

func TestCloseKillsAnEgressThatIgnoresSIGTERM(t *testing.T) {
	e := start(t, Options{Binary: deafBin, StopTimeout: 100 * time.Millisecond})
	waitReady(t, e) // its "ready" line follows its trap of SIGTERM
	pid := e.currentPID()
	err := e.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close: got %v, want an error saying the egress was killed", err)
	}
	if !processGone(pid) {
		t.Errorf("the egress (pid %d) is still running", pid)
	}
	if _, err := os.Stat(filepath.Dir(e.Socket())); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory is left: %v", err)
	}
}

func TestAKilledEgressIsRestarted(t *testing.T) {
	rec := newLogRecorder()
	// The restart waits a second: the test acts in that downtime.
	e := start(t, Options{Log: rec.logger(), MinBackoff: time.Second})
	waitReady(t, e)
	pid := e.currentPID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, eventRestarting, 1)

	// Down: WaitReady waits (here: not at all) and calls fail fast.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.WaitReady(done); !errors.Is(err, ErrNotReady) || !errors.Is(err, context.Canceled) {
		t.Errorf("WaitReady while down: %v, want ErrNotReady and the context's error", err)
	}
	if _, err := os.Lstat(e.Socket()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dead egress's socket is left: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://127.0.0.1/", nil)
	began := time.Now()
	resp, err := (&contract.Client{Socket: e.Socket()}).RoundTrip(req)
	took := time.Since(began)
	switch {
	case err != nil && !errors.Is(err, contract.ErrEgressUnreachable):
		t.Errorf("a call while down: %v, want ErrEgressUnreachable", err)
	case err == nil:
		resp.Body.Close()
		if r, _ := contract.RefusalOf(resp); r != contract.ReasonAddress {
			t.Errorf("a call while restarting: %d %q, want unreachable or a refusal", resp.StatusCode, r)
		}
		t.Logf("the egress was back already: %d %s", resp.StatusCode, r(resp))
	}
	if took > time.Second {
		t.Errorf("a call while down took %v", took)
	}

	waitReady(t, e)
	if status, _ := getHealthz(t, e.Socket()); status != 200 {
		t.Errorf("healthz after the restart: %d", status)
	}
	if now := e.currentPID(); now == pid || now == 0 {
		t.Errorf("pid after the restart: %d (before: %d)", now, pid)
	}
	exited := rec.named(eventExited)[0]
	if exited[fieldSignal] != "killed" || exited[fieldCode] != -1.0 {
		t.Errorf("exit event: %v, want signal killed, code -1", exited)
	}
	if n := len(rec.waitFor(t, eventReady, 2)); n != 2 {
		t.Errorf("%d ready events, want 2", n)
	}
}

// r names a response's refusal for a log line.
func r(resp *http.Response) string {
	reason, _ := contract.RefusalOf(resp)
	return string(reason)
}

func TestACrashingEgressIsRestartedWithDoublingDelays(t *testing.T) {
	rec := newLogRecorder()
	e := start(t, Options{Binary: crashBin, Log: rec.logger(), MinBackoff: time.Millisecond, MaxBackoff: time.Minute})
	restarts := rec.waitFor(t, eventRestarting, 6)

	var delays []float64
	for _, ev := range restarts[:6] {
		delays = append(delays, ev[fieldDelayMS].(float64))
	}
	if want := []float64{1, 2, 4, 8, 16, 32}; !slices.Equal(delays, want) {
		t.Errorf("delays %v ms, want %v", delays, want)
	}
	for _, ev := range rec.named(eventExited) {
		if ev[fieldCode] != 3.0 {
			t.Errorf("exit event %v, want code 3", ev)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	began := time.Now()
	err := e.WaitReady(ctx)
	if took := time.Since(began); took > time.Second {
		t.Errorf("WaitReady took %v with a 50 ms context", took)
	}
	if !errors.Is(err, ErrNotReady) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitReady: %v, want ErrNotReady and DeadlineExceeded", err)
	}
	if err != nil && (!strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "boom")) {
		t.Errorf("WaitReady's error does not say how the egress ended: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(e.Socket())); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory is left: %v", err)
	}
}

func TestWaitReadyFailsOnceTheEgressStayedDownForReadyTimeout(t *testing.T) {
	e := start(t, Options{Binary: crashBin, ReadyTimeout: 200 * time.Millisecond, MinBackoff: time.Millisecond})
	began := time.Now()
	err := e.WaitReady(context.Background())
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("WaitReady took %v with a 200 ms ReadyTimeout", took)
	}
	if !errors.Is(err, ErrNotReady) {
		t.Fatalf("WaitReady: %v, want ErrNotReady", err)
	}
	began = time.Now()
	if err := e.WaitReady(context.Background()); !errors.Is(err, ErrNotReady) {
		t.Errorf("WaitReady again: %v, want ErrNotReady", err)
	}
	if took := time.Since(began); took > 100*time.Millisecond {
		t.Errorf("WaitReady again took %v; it should fail at once", took)
	}
}

func TestAnEgressThatNeverBecomesReadyIsKilledAndRestarted(t *testing.T) {
	rec := newLogRecorder()
	e := start(t, Options{Binary: hangBin, Log: rec.logger(), ReadyTimeout: 100 * time.Millisecond, MinBackoff: time.Millisecond})
	first := e.currentPID()
	rec.waitFor(t, eventNotReady, 1)
	exited := rec.waitFor(t, eventExited, 1)[0]
	if exited[fieldSignal] != "killed" || exited[fieldPID] != float64(first) {
		t.Errorf("exit event %v, want pid %d killed", exited, first)
	}
	rec.waitFor(t, eventStarted, 2)
	if !processGone(first) {
		t.Errorf("the hung egress (pid %d) is still running", first)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestStartFails(t *testing.T) {
	notExecutable := filepath.Join(t.TempDir(), "rypsok-egress")
	os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644)
	missing := filepath.Join(t.TempDir(), "nowhere", "rypsok-egress")
	for _, tc := range []struct {
		name   string
		opts   Options
		is     error
		saying string
	}{
		{"when the binary does not exist", Options{Binary: missing}, ErrBinaryNotFound, missing},
		{"when the binary is not executable", Options{Binary: notExecutable}, ErrBinaryNotFound, notExecutable},
		{"when the binary's name is on no PATH directory", Options{Binary: "rypsok-egress-nonesuch"}, ErrBinaryNotFound, "rypsok-egress-nonesuch"},
		{"when Config fails", Options{Binary: egressBin, Config: func(string) ([]byte, error) { return nil, fs.ErrPermission }}, fs.ErrPermission, "egress configuration"},
		{"when the binary cannot be executed", Options{Binary: "/dev/null"}, nil, "/dev/null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			e, err := Start(tc.opts)
			if err == nil {
				e.Close()
				t.Fatal("Start succeeded")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.saying) {
				t.Errorf("error %q does not say %q", err, tc.saying)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

func TestStartRefusesASocketPathTooLongForUnix(t *testing.T) {
	deep := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.Mkdir(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", deep)
	_, err := Start(Options{Binary: egressBin})
	if err == nil || !strings.Contains(err.Error(), "TMPDIR") {
		t.Errorf("Start: %v, want an error naming TMPDIR", err)
	}
	if left, _ := os.ReadDir(deep); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestFindBinaryLooksBesideTheExecutableThenOnPath(t *testing.T) {
	withEgress := t.TempDir()
	beside := filepath.Join(withEgress, binaryName)
	os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755)
	withNotExecutable := t.TempDir()
	os.WriteFile(filepath.Join(withNotExecutable, binaryName), []byte("#!/bin/sh\n"), 0o644)
	onPath := t.TempDir()
	pathBinary := filepath.Join(onPath, binaryName)
	os.WriteFile(pathBinary, []byte("#!/bin/sh\n"), 0o755)
	empty := t.TempDir()

	for _, tc := range []struct {
		name string
		exe  string
		path string
		want string // "" means an error
	}{
		{"beside the executable wins over PATH", filepath.Join(withEgress, "rypsok"), onPath, beside},
		{"nothing beside: PATH", filepath.Join(empty, "rypsok"), onPath, pathBinary},
		{"a file beside that is not executable: PATH", filepath.Join(withNotExecutable, "rypsok"), onPath, pathBinary},
		{"no executable path known: PATH", "", onPath, pathBinary},
		{"neither beside nor on PATH", filepath.Join(empty, "rypsok"), empty, ""},
		{"no executable path and not on PATH", "", empty, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			got, err := findBinary(tc.exe)
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("got %s, want an error", got)
			case tc.want == "" && !errors.Is(err, ErrBinaryNotFound):
				t.Errorf("error %v, want ErrBinaryNotFound", err)
			case tc.want == "" && tc.exe != "" && !strings.Contains(err.Error(), filepath.Join(filepath.Dir(tc.exe), binaryName)):
				t.Errorf("error %q does not say where it looked", err)
			case tc.want != "" && (err != nil || got != tc.want):
				t.Errorf("got %q %v, want %s", got, err, tc.want)
			}
		})
	}
}

func TestBackoffDoublesUpToItsMaximumAndResetsAfterALongRun(t *testing.T) {
	const ms = time.Millisecond
	b := backoff{min: 100 * ms, max: 1000 * ms}
	for i, tc := range []struct {
		name string
		ran  time.Duration
		want time.Duration
	}{
		{"the first restart waits the minimum", 0, 100 * ms},
		{"a quick crash doubles it", 5 * ms, 200 * ms},
		{"again", 5 * ms, 400 * ms},
		{"again", 5 * ms, 800 * ms},
		{"the maximum caps it", 5 * ms, 1000 * ms},
		{"and keeps it there", 5 * ms, 1000 * ms},
		{"a run of exactly the maximum does not reset it", 1000 * ms, 1000 * ms},
		{"a run just longer than the maximum resets it", 1001 * ms, 100 * ms},
		{"then it doubles again", 0, 200 * ms},
	} {
		if got := b.next(tc.ran); got != tc.want {
			t.Errorf("step %d, %s: got %v, want %v", i, tc.name, got, tc.want)
		}
	}
}

func TestNoGoroutineIsLeftAfterClose(t *testing.T) {
	before := runtime.NumGoroutine()

	rec := newLogRecorder()
	e := start(t, Options{Log: rec.logger(), MinBackoff: time.Millisecond})
	waitReady(t, e)
	syscall.Kill(e.currentPID(), syscall.SIGKILL)
	rec.waitFor(t, eventReady, 2)
	waitReady(t, e)
	e.Close()
	crashing := start(t, Options{Binary: crashBin, MinBackoff: time.Millisecond})
	crashing.Close()
	hung := start(t, Options{Binary: hangBin})
	hung.Close()

	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after Close:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// TestStartToReadyLatency measures the egress's part of rypsok's cold
// start: from Start to the first WaitReady that succeeds.
func TestStartToReadyLatency(t *testing.T) {
	const runs = 20
	var total, spawn []time.Duration
	for range runs {
		rec := newLogRecorder()
		began := time.Now()
		e := start(t, Options{Log: rec.logger()})
		waitReady(t, e)
		total = append(total, time.Since(began))
		ev := rec.waitFor(t, eventReady, 1)[0]
		spawn = append(spawn, time.Duration(ev[fieldReadyMS].(float64)*float64(time.Millisecond)))
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(total)
	slices.Sort(spawn)
	t.Logf("Start→ready over %d runs: median %v (min %v, max %v); spawn→ready median %v",
		runs, total[runs/2], total[0], total[runs-1], spawn[runs/2])
}

// BenchmarkStartToReady reports Start→ready (ns/op includes Close).
func BenchmarkStartToReady(b *testing.B) {
	var ready []time.Duration
	for b.Loop() {
		began := time.Now()
		e := start(b, Options{})
		waitReady(b, e)
		ready = append(ready, time.Since(began))
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
	slices.Sort(ready)
	b.ReportMetric(float64(ready[len(ready)/2].Microseconds())/1000, "ms-median-ready")
}

func TestCloseReleasesWaiters(t *testing.T) {
	e := start(t, Options{Binary: crashBin})
	waited := make(chan error, 1)
	go func() { waited <- e.WaitReady(context.Background()) }()
	e.Close()
	if err := <-waited; !errors.Is(err, ErrClosed) {
		t.Errorf("a WaitReady blocked during Close returned %v, want ErrClosed", err)
	}
}

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// TestTheEgressDiesWithRypsok: a rypsok that exits without Close (as if
// killed) breaks the egress's lifeline; the egress drains, exits, and
// removes the private directory with its socket and egress.toml.
func TestTheEgressDiesWithRypsok(t *testing.T) {
	// As a subreaper, this process inherits the orphaned egress and can
	// wait for it.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	defer syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanEnv+"="+egressBin, "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the rypsok stand-in: %v", err)
	}
	var pid int
	var dir string
	if _, err := fmt.Sscan(string(out), &pid, &dir); err != nil {
		t.Fatalf("the rypsok stand-in said %q: %v", out, err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) }) // in case the egress failed to

	waited := make(chan error, 1)
	var ws syscall.WaitStatus
	go func() {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		waited <- err
	}()
	timer := time.NewTimer(15 * time.Second)
	defer timer.Stop()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("waiting for the orphaned egress (pid %d): %v", pid, err)
		}
		if !ws.Exited() || ws.ExitStatus() != 0 {
			t.Errorf("the orphaned egress ended by %s, want exit status 0 (a drain)", describeWait(ws))
		}
	case <-timer.C:
		syscall.Kill(pid, syscall.SIGKILL)
		<-waited
		t.Fatalf("the egress (pid %d) outlived rypsok by 15 s", pid)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		left, _ := os.ReadDir(dir)
		t.Errorf("the private directory %s is left (%v), holding %v", dir, err, left)
	}
}

// describeWait says how a process ended.
func describeWait(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return "signal " + ws.Signal().String()
	}
	return fmt.Sprintf("exit status %d", ws.ExitStatus())
}

func TestForwardStderr(t *testing.T) {
	long := strings.Repeat("x", maxLine+10)
	for _, tc := range []struct {
		name   string
		in     string
		writes []string
		ready  int
		last   string
	}{
		{"nothing", "", nil, 0, ""},
		{"lines pass unchanged, one Write each", "a\nb\n", []string{"a\n", "b\n"}, 0, "b"},
		{"a last line without a newline passes too", "a\nb", []string{"a\n", "b"}, 0, "b"},
		{"the ready line is seen once", `{"event":"ready"}` + "\n" + `{"event":"ready"}` + "\n", []string{`{"event":"ready"}` + "\n", `{"event":"ready"}` + "\n"}, 1, `{"event":"ready"}`},
		{"another event is not readiness", `{"event":"readying"}` + "\n", []string{`{"event":"readying"}` + "\n"}, 0, `{"event":"readying"}`},
		{"a line longer than the buffer passes in pieces", long + "\n", []string{long[:maxLine], long[maxLine:] + "\n"}, 0, strings.Repeat("x", 10)},
		{"blank lines do not replace the last line", "a\n\n", []string{"a\n", "\n"}, 0, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &lineWriter{}
			ready := 0
			last := forwardStderr(strings.NewReader(tc.in), w, func(via string) {
				if via != "stderr" {
					t.Errorf("via %q", via)
				}
				ready++
			})
			if got := w.all(); !slices.Equal(got, tc.writes) {
				t.Errorf("writes %q, want %q", shorten(got), shorten(tc.writes))
			}
			if ready != tc.ready || last != tc.last {
				t.Errorf("ready %d times, last %q; want %d, %q", ready, last, tc.ready, tc.last)
			}
		})
	}
}

// shorten keeps test output readable.
func shorten(ss []string) []string {
	var out []string
	for _, s := range ss {
		if len(s) > 40 {
			s = fmt.Sprintf("%s…(%d bytes)", s[:20], len(s))
		}
		out = append(out, s)
	}
	return out
}
