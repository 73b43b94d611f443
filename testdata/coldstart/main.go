// Command coldstart measures the cold start of an MCP server over stdio:
// the time from just before the process is spawned until the first byte
// of its answer to initialize arrives on its standard output. It measures
// rypsok serve (which starts its rypsok-egress once that answer is
// written) beside the smallest go-sdk server with one tool (./minimal,
// built here with the
// flags of `make build`), runs interleaved after a few warm-ups, and
// prints a Markdown table for docs/performance.md.
//
// Like a client, it sends notifications/initialized once the answer has
// arrived. For rypsok it also records when the launcher logged
// egress_ready on rypsok's standard error (spawn → egress ready), and the
// launcher's own ready_ms (egress spawn → ready).
// Each run keeps rypsok's standard input open until the egress is ready,
// then closes it and expects exit 0.
//
//	cd testdata/coldstart && go run . -rypsok ../../bin/rypsok -n 50
//
// Every process is started with PATH as its only environment variable.
// The whole measurement is bounded by -deadline; a run that does not
// finish within -run-timeout is killed and reported.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// initialize is the request written on the server's standard input.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"coldstart","version":"0.0.0"}}}` + "\n"

// initialized is the notification a client sends once initialize is
// answered, written as soon as the answer arrives.
const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// Launcher events on rypsok's standard error (front/launcher).
var (
	markEgressReady    = []byte(`"event":"egress_ready"`)
	markEgressNotReady = []byte(`"event":"egress_not_ready"`)
)

func main() {
	rypsok := flag.String("rypsok", "", "the rypsok executable (rypsok-egress beside it)")
	n := flag.Int("n", 50, "measured runs of each server")
	warmup := flag.Int("warmup", 3, "warm-up runs of each server, not measured")
	goCmd := flag.String("go", "go", "the go command, to build the minimal server")
	deadline := flag.Duration("deadline", 60*time.Second, "bound of the whole measurement, build included")
	runTimeout := flag.Duration("run-timeout", 10*time.Second, "bound of one run")
	flag.Parse()
	if *rypsok == "" || *n < 1 || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "usage: coldstart -rypsok PATH [-n 50] [-warmup 3]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *deadline)
	defer cancel()
	if err := run(ctx, *rypsok, *goCmd, *n, *warmup, *runTimeout); err != nil {
		fmt.Fprintln(os.Stderr, "coldstart:", err)
		cancel()
		os.Exit(1)
	}
}

func run(ctx context.Context, rypsok, goCmd string, n, warmup int, runTimeout time.Duration) error {
	rypsok, err := filepath.Abs(rypsok)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(rypsok), "rypsok-egress")); err != nil {
		return fmt.Errorf("rypsok-egress must be beside %s (make build): %w", rypsok, err)
	}
	dir, err := os.MkdirTemp("", "coldstart-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	minimal := filepath.Join(dir, "minimal")
	if err := buildMinimal(ctx, goCmd, minimal); err != nil {
		return err
	}

	servers := []*server{
		{name: "minimal go-sdk server (1 tool)", bin: minimal},
		{name: "rypsok serve (its egress started once initialize is answered)", bin: rypsok, args: []string{"serve"}, egress: true},
	}
	for i := range warmup + n {
		for _, s := range servers {
			sm, err := once(ctx, s, runTimeout)
			if err != nil {
				return fmt.Errorf("%s, run %d: %w", s.name, i+1, err)
			}
			if i >= warmup {
				s.samples = append(s.samples, sm)
			}
		}
	}
	report(os.Stdout, servers, n, warmup)
	return nil
}

// buildMinimal builds ./minimal as `make build` builds rypsok: static,
// -trimpath, symbols stripped.
func buildMinimal(ctx context.Context, goCmd, out string) error {
	cmd := exec.CommandContext(ctx, goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./minimal")
	cmd.Dir = sourceDir()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the minimal server: %w\n%s", err, b)
	}
	return nil
}

// sourceDir is this module's directory: where this file was compiled
// from (go run), else the working directory.
func sourceDir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), "minimal")); err == nil {
			return filepath.Dir(file)
		}
	}
	return "."
}

type server struct {
	name    string
	bin     string
	args    []string
	egress  bool // rypsok: wait for and time the launcher's egress_ready
	samples []sample
}

type sample struct {
	initialize  time.Duration // spawn → first byte of the initialize response
	egressReady time.Duration // spawn → egress_ready read on stderr (rypsok)
	launcherMS  float64       // the launcher's ready_ms: egress spawn → ready (rypsok)
}

// once spawns s's server, times its initialize answer (and for rypsok its
// egress readiness), ends its input, and checks it exits 0.
func once(ctx context.Context, s *server, timeout time.Duration) (sample, error) {
	var sm sample
	inR, inW, err := os.Pipe()
	if err != nil {
		return sm, err
	}
	defer inW.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		return sm, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		outR.Close()
		outW.Close()
		return sm, err
	}
	// The request waits in the pipe: the server reads it as soon as it
	// reads its standard input.
	if _, err := io.WriteString(inW, initialize); err != nil {
		return sm, err
	}
	cmd := exec.Command(s.bin, s.args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW

	t0 := time.Now()
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return sm, err
	}

	firstByte := make(chan time.Duration, 1)
	response := make(chan lineOrErr, 1)
	go readResponse(outR, t0, firstByte, response)
	egressReady := make(chan egressEvent, 1)
	stderrDone := make(chan string, 1)
	go readStderr(errR, t0, egressReady, stderrDone)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	// fail kills the process and reports err with its standard error.
	fail := func(err error) (sample, error) {
		cmd.Process.Kill()
		<-exited
		return sm, fmt.Errorf("%w\nstderr:\n%s", err, <-stderrDone)
	}

	var resp lineOrErr
	gotResp, gotReady := false, !s.egress
	for !gotResp || !gotReady {
		select {
		case d := <-firstByte:
			sm.initialize = d
		case resp = <-response:
			gotResp = true
			if resp.err != nil {
				return fail(fmt.Errorf("reading the initialize response: %w", resp.err))
			}
			// the client's end of the handshake
			if _, err := io.WriteString(inW, initialized); err != nil {
				return fail(fmt.Errorf("writing notifications/initialized: %w", err))
			}
		case ev := <-egressReady:
			if ev.err != nil {
				return fail(ev.err)
			}
			gotReady = true
			sm.egressReady, sm.launcherMS = ev.at, ev.readyMS
		case err := <-exited:
			exited <- err
			return fail(fmt.Errorf("exited before answering: %v", err))
		case <-timer.C:
			return fail(fmt.Errorf("no answer within %v", timeout))
		case <-ctx.Done():
			return fail(context.Cause(ctx))
		}
	}
	if err := checkResponse(resp.line); err != nil {
		return fail(err)
	}

	inW.Close() // end of input: the server must exit 0
	select {
	case err = <-exited:
	case <-timer.C:
		return fail(fmt.Errorf("did not exit within %v of the start after its input ended", timeout))
	case <-ctx.Done():
		return fail(context.Cause(ctx))
	}
	logs := <-stderrDone
	if err != nil {
		return sm, fmt.Errorf("exit after end of input: %w\nstderr:\n%s", err, logs)
	}
	return sm, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

// readResponse reads the server's standard output: it sends the time of
// the first byte, then the first line, then discards the rest until EOF.
func readResponse(r *os.File, t0 time.Time, first chan<- time.Duration, line chan<- lineOrErr) {
	defer r.Close()
	var buf [4096]byte
	var acc []byte
	sentFirst := false
	for {
		n, err := r.Read(buf[:])
		if n > 0 && !sentFirst {
			first <- time.Since(t0)
			sentFirst = true
		}
		acc = append(acc, buf[:n]...)
		if i := bytes.IndexByte(acc, '\n'); i >= 0 {
			line <- lineOrErr{line: acc[:i]}
			io.Copy(io.Discard, r)
			return
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			line <- lineOrErr{err: err}
			return
		}
	}
}

// checkResponse checks that line is a successful answer to request 1.
func checkResponse(line []byte) error {
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return fmt.Errorf("initialize response %q: %w", line, err)
	}
	if string(resp.ID) != "1" || resp.Result == nil || resp.Result.ProtocolVersion == "" {
		return fmt.Errorf("not a successful initialize response: %s", line)
	}
	return nil
}

type egressEvent struct {
	at      time.Duration
	readyMS float64
	err     error
}

// readStderr reads rypsok's standard error line by line until EOF,
// reports the launcher's egress_ready (or egress_not_ready) on ready, and
// sends the whole text on done.
func readStderr(r *os.File, t0 time.Time, ready chan<- egressEvent, done chan<- string) {
	defer r.Close()
	var all strings.Builder
	br := bufio.NewReader(r)
	reported := false
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			at := time.Since(t0)
			if all.Len() < 64<<10 {
				all.Write(line)
			}
			if !reported && bytes.Contains(line, markEgressReady) {
				var ev struct {
					ReadyMS float64 `json:"ready_ms"`
				}
				ev.ReadyMS = -1
				json.Unmarshal(line, &ev)
				ready <- egressEvent{at: at, readyMS: ev.ReadyMS}
				reported = true
			} else if !reported && bytes.Contains(line, markEgressNotReady) {
				ready <- egressEvent{err: fmt.Errorf("egress not ready: %s", bytes.TrimSpace(line))}
				reported = true
			}
		}
		if err != nil {
			done <- all.String()
			return
		}
	}
}

// stats are the figures of one row, in milliseconds.
type stats struct{ median, p90, min, max float64 }

func summarize(ds []float64) stats {
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	median := s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	// p90 by the nearest-rank method.
	rank := (90*n + 99) / 100
	return stats{median: median, p90: s[max(rank, 1)-1], min: s[0], max: s[n-1]}
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func report(w io.Writer, servers []*server, n, warmup int) {
	fmt.Fprintf(w, "Cold start over stdio: spawn until the first byte of the initialize response; %d runs of each after %d warm-ups, interleaved; %s, %s/%s, %d CPUs.\n\n",
		n, warmup, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Fprintln(w, "| measure | median | p90 | min | max |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|")
	row := func(name string, vals []float64) stats {
		st := summarize(vals)
		fmt.Fprintf(w, "| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n", name, st.median, st.p90, st.min, st.max)
		return st
	}
	medians := map[string]float64{}
	var notes []string
	for _, s := range servers {
		var init []float64
		for _, sm := range s.samples {
			init = append(init, millis(sm.initialize))
		}
		medians[s.name] = row(s.name+": initialize answered", init).median
		if !s.egress {
			continue
		}
		var ready, launcher []float64
		for _, sm := range s.samples {
			ready = append(ready, millis(sm.egressReady))
			launcher = append(launcher, sm.launcherMS)
		}
		row("rypsok serve: egress ready (spawn → egress_ready logged)", ready)
		row("rypsok serve: egress ready (egress spawn → ready, launcher's ready_ms)", launcher)
	}
	fmt.Fprintf(w, "\nrypsok / minimal (median of initialize answered): %.2f×\n",
		medians[servers[1].name]/medians[servers[0].name])
	for _, note := range notes {
		fmt.Fprintln(w, note)
	}
}
