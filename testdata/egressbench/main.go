// Command egressbench streams 5 MiB bodies directly, through rypsok-egress
// and through stripe/smokescreen, over http and https, and prints one
// Markdown table comparing them (throughput, fetch time, proxy CPU and
// peak RSS).
//
// It lives under testdata/ as its own module so that smokescreen never
// enters the main module's dependency graph. Run it from this directory:
//
//	go run . [-rounds 5] [-n 100] [-workers 4] [-per-worker 25] [-rows https/]
//
// Everything is on loopback: an in-process upstream (httptest, plain and
// TLS), rypsok-egress built from ../.. and started as a child process on a
// Unix socket, and smokescreen started as a child process (this binary
// re-executed with the "smokescreen" argument) on a loopback TCP port. Each
// proxy row gets a fresh proxy process, so its peak RSS (VmHWM) and CPU
// time (utime+stime) are its own. Every child is killed at the end, on
// failure, on SIGINT/SIGTERM and when the -timeout budget runs out.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rypsok/rypsok/shared/contract"
)

// bodySize is the streamed body: LIM-F3, the largest body the egress
// forwards.
const bodySize = 5 << 20

// clkTck is USER_HZ, the unit of utime and stime in /proc/PID/stat; it is
// 100 on every Linux architecture Go supports.
const clkTck = 100

var (
	flagN         = flag.Int("n", 100, "sequential fetches per row")
	flagWorkers   = flag.Int("workers", 4, "concurrent workers")
	flagPerWorker = flag.Int("per-worker", 25, "fetches per concurrent worker")
	flagWarmup    = flag.Int("warmup", 5, "warm-up fetches before each measured run (the first one's body is compared byte for byte)")
	flagRoot      = flag.String("root", "../..", "root of the rypsok main module (rypsok-egress is built from there)")
	flagEgressBin = flag.String("egress-bin", "", "use this rypsok-egress binary instead of building one")
	flagTimeout   = flag.Duration("timeout", 170*time.Second, "hard budget of the whole run; children are killed when it runs out")
	flagRounds    = flag.Int("rounds", 1, "rounds of the whole matrix; the table shows each row's median round and the range of its ratio")
	flagKeep      = flag.Bool("keep", false, "keep the temporary directory (configs, logs)")
	flagRows      = flag.String("rows", "", "run only the rows whose scheme/run/path contains this (e.g. \"https/sequential\"); direct always runs, for the ratio")
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "smokescreen" {
		os.Exit(runSmokescreen(os.Args[2:]))
	}
	flag.Parse()
	if *flagN < 1 || *flagWorkers < 1 || *flagPerWorker < 1 || *flagRounds < 1 || *flagWarmup < 0 {
		fmt.Fprintln(os.Stderr, "egressbench: -n, -workers, -per-worker and -rounds must be at least 1")
		os.Exit(2)
	}
	code := run()
	os.Exit(code)
}

// stopping is set once a signal or the budget is ending the run.
var stopping atomic.Bool

// children tracks every process started, so that all are killed on any exit.
var children struct {
	sync.Mutex
	procs map[int]*exec.Cmd
}

func startChild(cmd *exec.Cmd) error {
	// Pdeathsig kills the child if this process dies without cleaning up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	children.Lock()
	if children.procs == nil {
		children.procs = map[int]*exec.Cmd{}
	}
	children.procs[cmd.Process.Pid] = cmd
	children.Unlock()
	return nil
}

// stopChild kills one child by its pid and reaps it.
func stopChild(cmd *exec.Cmd) {
	children.Lock()
	_, ok := children.procs[cmd.Process.Pid]
	delete(children.procs, cmd.Process.Pid)
	children.Unlock()
	if ok {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

func killAll() {
	children.Lock()
	procs := children.procs
	children.procs = nil
	children.Unlock()
	for _, cmd := range procs {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

func run() int {
	tmp, err := os.MkdirTemp("", "egressbench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cleanup := func() {
		killAll()
		if !*flagKeep {
			os.RemoveAll(tmp)
		} else {
			fmt.Fprintln(os.Stderr, "kept", tmp)
		}
	}
	defer cleanup()

	// SIGINT/SIGTERM and the overall budget end the run with every child killed.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		stopping.Store(true)
		fmt.Fprintln(os.Stderr, "egressbench:", s, "- stopping")
		cleanup()
		os.Exit(1)
	}()
	time.AfterFunc(*flagTimeout, func() {
		stopping.Store(true)
		fmt.Fprintf(os.Stderr, "egressbench: over the %v budget - stopping\n", *flagTimeout)
		cleanup()
		os.Exit(1)
	})

	b := &bench{tmp: tmp}
	if err := b.run(); err != nil {
		if stopping.Load() {
			select {} // the signal or the budget ends the process
		}
		fmt.Fprintln(os.Stderr, "egressbench:", err)
		b.dumpLogs()
		return 1
	}
	return 0
}

type bench struct {
	tmp       string
	body      []byte
	plain     *httptest.Server
	secure    *httptest.Server
	egressBin string
	caFile    string
	dnsAddr   string
	logs      []string
	keys      []string            // "scheme/run/path" in the order of the table
	rounds    map[string][]result // each key's result of every round
	started   time.Time
}

// target is one scheme's upstream.
type target struct {
	scheme string
	url    string // the body's URL
	port   string
}

type result struct {
	scheme, mode, path string
	fetches            int
	wall               time.Duration
	lat                []time.Duration
	proxyCPU           time.Duration // utime+stime of the proxy process during the measured run
	selfCPU            time.Duration // utime+stime of this process (client + upstream) during the measured run
	peakRSS            int64         // VmHWM of the proxy process in KiB, 0 for direct
}

func (b *bench) run() error {
	b.started = time.Now()
	b.body = make([]byte, bodySize)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range b.body {
		b.body[i] = byte(rng.Uint32())
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/body":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", strconv.Itoa(len(b.body)))
			w.Write(b.body)
		case "/ping":
			w.Write([]byte("pong"))
		default:
			http.NotFound(w, r)
		}
	})
	b.plain = httptest.NewServer(h)
	defer b.plain.Close()
	b.secure = httptest.NewTLSServer(h)
	defer b.secure.Close()
	b.caFile = filepath.Join(b.tmp, "upstream-ca.pem")
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: b.secure.Certificate().Raw})
	if err := os.WriteFile(b.caFile, certPEM, 0o600); err != nil {
		return err
	}
	// The egress needs a DNS server in its configuration; the bench uses the
	// literal 127.0.0.1, so nothing is ever asked. A held UDP port stands in.
	dns, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer dns.Close()
	b.dnsAddr = dns.LocalAddr().String()

	if err := b.buildEgress(); err != nil {
		return err
	}

	targets := []target{
		{"http", b.plain.URL + "/body", port(b.plain.URL)},
		{"https", b.secure.URL + "/body", port(b.secure.URL)},
	}
	paths := []string{"direct", "rypsok-egress", "smokescreen"}
	b.rounds = make(map[string][]result)
	for round := range *flagRounds {
		// Each round turns the order of the paths, so no path always runs
		// first (or right after another) within a scheme and run.
		order := append(slices.Clone(paths[round%len(paths):]), paths[:round%len(paths)]...)
		for _, t := range targets {
			for _, mode := range []string{"sequential", "concurrent"} {
				for _, path := range order {
					key := t.scheme + "/" + mode + "/" + path
					if path != "direct" && !strings.Contains(key, *flagRows) {
						continue
					}
					r, err := b.runRow(t, mode, path)
					if err != nil {
						return fmt.Errorf("round %d: %s: %w", round+1, key, err)
					}
					if round == 0 {
						b.keys = append(b.keys, key)
					}
					b.rounds[key] = append(b.rounds[key], r)
					fmt.Fprintf(os.Stderr, "  round %d  %-32s %7.1f MiB/s  p50 %6.2f ms\n",
						round+1, key, r.mibps(), ms(pct(r.lat, 50)))
				}
			}
		}
	}
	b.print()
	return nil
}

func port(u string) string {
	p, _ := url.Parse(u)
	return p.Port()
}

func (b *bench) buildEgress() error {
	if *flagEgressBin != "" {
		b.egressBin = *flagEgressBin
		return nil
	}
	b.egressBin = filepath.Join(b.tmp, "rypsok-egress")
	// Built as `make build` builds it, from the main module (its own go.sum,
	// not this module's dependency versions).
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", b.egressBin, "github.com/rypsok/rypsok/cmd/rypsok-egress")
	cmd.Dir = *flagRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	fmt.Fprintln(os.Stderr, "building rypsok-egress in", *flagRoot)
	return cmd.Run()
}

// proxy is a running proxy process and the client that goes through it.
type proxy struct {
	cmd    *exec.Cmd
	client *http.Client
}

func (b *bench) directClient(workers int) *http.Client {
	return &http.Client{Transport: b.transport(workers), Timeout: 30 * time.Second}
}

// transport is the client transport every TCP variant shares: the
// upstream's CA, no compression, enough idle connections for every worker.
func (b *bench) transport(workers int) *http.Transport {
	roots := x509.NewCertPool()
	roots.AddCert(b.secure.Certificate())
	return &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		DisableCompression:  true,
		MaxIdleConns:        64,
		MaxIdleConnsPerHost: max(workers, 2),
		IdleConnTimeout:     60 * time.Second,
		ForceAttemptHTTP2:   false,
	}
}

func (b *bench) startEgress(label string) (*proxy, error) {
	dir := filepath.Join(b.tmp, label)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	sock := filepath.Join(dir, "egress.sock")
	cfg := fmt.Sprintf(`config_version = 1

[listen]
socket = %q

[dns]
servers = [%q]

[policy]
allow_http = true
allow = [%q, %q]
ca_file = %q
`, sock, b.dnsAddr, "127.0.0.1:"+port(b.plain.URL), "127.0.0.1:"+port(b.secure.URL), b.caFile)
	cfgPath := filepath.Join(dir, "egress.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "egress.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	b.logs = append(b.logs, logPath)
	cmd := exec.Command(b.egressBin, "--config", cfgPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := startChild(cmd); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "started rypsok-egress pid %d (%s)\n", cmd.Process.Pid, label)
	p := &proxy{cmd: cmd, client: &http.Client{Transport: &contract.Client{Socket: sock}, Timeout: 30 * time.Second}}
	// Readiness: GET /healthz in origin form over the socket.
	health := &http.Client{Timeout: time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		DisableKeepAlives: true,
	}}
	err = poll(func() error {
		resp, err := health.Get("http://egress/healthz")
		if err != nil {
			return err
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.TrimSpace(string(data)) != "ok" {
			return fmt.Errorf("healthz: %s %q", resp.Status, data)
		}
		return nil
	}, cmd)
	if err != nil {
		stopChild(cmd)
		return nil, fmt.Errorf("rypsok-egress not ready: %w", err)
	}
	return p, nil
}

func (b *bench) startSmokescreen(label string, workers int) (*proxy, error) {
	dir := filepath.Join(b.tmp, label)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "smokescreen.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	b.logs = append(b.logs, logPath)
	cmd := exec.Command(self, "smokescreen", "--listen", addr)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := startChild(cmd); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "started smokescreen pid %d (%s)\n", cmd.Process.Pid, label)
	tr := b.transport(workers)
	tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: addr})
	p := &proxy{cmd: cmd, client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	// Readiness: a small GET through it (http, so the proxy itself answers).
	probe := &http.Client{Timeout: time.Second, Transport: &http.Transport{
		Proxy:             http.ProxyURL(&url.URL{Scheme: "http", Host: addr}),
		DisableKeepAlives: true,
	}}
	err = poll(func() error {
		resp, err := probe.Get(b.plain.URL + "/ping")
		if err != nil {
			return err
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(data) != "pong" {
			return fmt.Errorf("probe: %s %q", resp.Status, data)
		}
		return nil
	}, cmd)
	if err != nil {
		stopChild(cmd)
		return nil, fmt.Errorf("smokescreen not ready: %w", err)
	}
	return p, nil
}

// poll calls f until it succeeds, for at most 10 s, failing early if the
// process exited.
func poll(f func() error, cmd *exec.Cmd) error {
	var err error
	for range 200 {
		if err = f(); err == nil {
			return nil
		}
		if _, serr := os.Stat(fmt.Sprintf("/proc/%d", cmd.Process.Pid)); serr != nil {
			return fmt.Errorf("process exited: %w", err)
		}
		if st, _ := procState(cmd.Process.Pid); st == "Z" {
			return fmt.Errorf("process exited: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

func (b *bench) runRow(t target, mode, path string) (result, error) {
	r := result{scheme: t.scheme, mode: mode, path: path}
	workers, per := 1, *flagN
	if mode == "concurrent" {
		workers, per = *flagWorkers, *flagPerWorker
	}
	var p *proxy
	var err error
	label := fmt.Sprintf("%s-%s-%s", path, t.scheme, mode)
	client := b.directClient(workers)
	switch path {
	case "rypsok-egress":
		p, err = b.startEgress(label)
		if err != nil {
			return r, err
		}
		client = p.client
	case "smokescreen":
		p, err = b.startSmokescreen(label, workers)
		if err != nil {
			return r, err
		}
		client = p.client
	}
	if p != nil {
		defer stopChild(p.cmd)
	}
	defer client.CloseIdleConnections()

	// Warm-up with as many workers as the run, so every pooled connection
	// (and TLS session) exists before the clock starts. The first body is
	// compared byte for byte.
	if err := b.fetch(client, t.url, path, true); err != nil {
		return r, fmt.Errorf("warm-up: %w", err)
	}
	if _, _, err := b.load(client, t.url, path, workers, max(*flagWarmup, workers)/workers); err != nil {
		return r, fmt.Errorf("warm-up: %w", err)
	}

	var cpu0 time.Duration
	if p != nil {
		if cpu0, err = procCPU(p.cmd.Process.Pid); err != nil {
			return r, err
		}
	}
	self0 := selfCPU()
	r.wall, r.lat, err = b.load(client, t.url, path, workers, per)
	if err != nil {
		return r, err
	}
	r.selfCPU = selfCPU() - self0
	r.fetches = len(r.lat)
	if p != nil {
		cpu1, err := procCPU(p.cmd.Process.Pid)
		if err != nil {
			return r, err
		}
		r.proxyCPU = cpu1 - cpu0
		if r.peakRSS, err = procHWM(p.cmd.Process.Pid); err != nil {
			return r, err
		}
	}
	return r, nil
}

// load runs workers × per fetches and returns the wall time and each
// fetch's duration.
func (b *bench) load(client *http.Client, u, path string, workers, per int) (time.Duration, []time.Duration, error) {
	lat := make([][]time.Duration, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for range per {
				t0 := time.Now()
				if err := b.fetch(client, u, path, false); err != nil {
					errs[w] = err
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		})
	}
	wg.Wait()
	wall := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return 0, nil, err
	}
	return wall, slices.Concat(lat...), nil
}

// fetch reads one whole body and checks its length (and, with compare, its
// bytes); through the egress it also checks the end trailer.
func (b *bench) fetch(client *http.Client, u, path string, compare bool) error {
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		return err
	}
	if path == "rypsok-egress" {
		contract.Request{Profile: contract.ProfileAgent}.Apply(req.Header)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("status %s (refusal %q): %q", resp.Status, resp.Header.Get(contract.HeaderRefusal), data)
	}
	var n int64
	if compare {
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if !bytes.Equal(data, b.body) {
			return fmt.Errorf("body differs (%d bytes)", len(data))
		}
		n = int64(len(data))
	} else if n, err = io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if n != bodySize {
		return fmt.Errorf("read %d bytes, want %d", n, bodySize)
	}
	if path == "rypsok-egress" {
		if e := contract.EndOf(resp); e != contract.EndComplete {
			return fmt.Errorf("end trailer %q", e)
		}
	}
	return nil
}

// procCPU is utime+stime of pid.
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * time.Second / clkTck, nil
}

func procState(pid int) (string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	s := string(data)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+2:])[0], nil
}

// procHWM is VmHWM (peak RSS) of pid in KiB.
func procHWM(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no VmHWM")
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (r result) mibps() float64 {
	return float64(r.fetches) * bodySize / (1 << 20) / r.wall.Seconds()
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (b *bench) print() {
	w := os.Stdout
	fmt.Fprintf(w, "5 MiB bodies (%d bytes) on loopback; sequential: %d fetches, concurrent: %d workers × %d fetches; warm-up excluded; %d round(s).\n\n",
		bodySize, *flagN, *flagWorkers, *flagPerWorker, *flagRounds)
	fmt.Fprintln(w, "| scheme | run | path | MiB/s | ms/fetch p50 | ms/fetch p90 | time vs direct | proxy CPU ms/fetch | client+upstream CPU ms/fetch | proxy peak RSS |")
	fmt.Fprintln(w, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, key := range b.keys {
		rs := b.rounds[key]
		f := strings.Split(key, "/")
		direct := b.rounds[f[0]+"/"+f[1]+"/direct"]
		// ratio of each round: this row's wall time over direct's in the same round.
		type round struct {
			r     result
			ratio float64
		}
		var all []round
		for i, r := range rs {
			all = append(all, round{r, r.wall.Seconds() / direct[i].wall.Seconds()})
		}
		slices.SortFunc(all, func(a, b round) int {
			return cmp.Or(cmp.Compare(a.ratio, b.ratio), cmp.Compare(a.r.wall, b.r.wall))
		})
		med := all[(len(all)-1)/2]
		if f[2] == "direct" { // ratio is 1 in every round: take the median wall time
			slices.SortFunc(all, func(a, b round) int { return cmp.Compare(a.r.wall, b.r.wall) })
			med = all[(len(all)-1)/2]
		}
		r := med.r
		ratio := fmt.Sprintf("%.2f×", med.ratio)
		if len(all) > 1 && f[2] != "direct" {
			ratio += fmt.Sprintf(" (%.2f–%.2f)", all[0].ratio, all[len(all)-1].ratio)
		}
		cpu, rss := "–", "–"
		if r.path != "direct" {
			cpu = fmt.Sprintf("%.2f", ms(r.proxyCPU)/float64(r.fetches))
			rss = fmt.Sprintf("%.1f MiB", float64(r.peakRSS)/1024)
		}
		path := r.path
		if r.path == "smokescreen" && r.scheme == "https" {
			path = "smokescreen (CONNECT)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.0f | %.2f | %.2f | %s | %s | %.2f | %s |\n",
			r.scheme, r.mode, path, r.mibps(), ms(pct(r.lat, 50)), ms(pct(r.lat, 90)), ratio, cpu,
			ms(r.selfCPU)/float64(r.fetches), rss)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Machine: %d CPUs (%s), %s, %s/%s; smokescreen %s; harness run %s.\n",
		runtime.NumCPU(), cpuModel(), runtime.Version(), runtime.GOOS, runtime.GOARCH, smokescreenVersion(),
		time.Since(b.started).Round(time.Second))
	fmt.Fprintln(w, "time vs direct = wall time of the run ÷ wall time of the same run fetched directly in the same round (1.00× = as fast")
	fmt.Fprintln(w, "as direct); with several rounds, the median round is shown and the range of its ratio in parentheses.")
	fmt.Fprintln(w, "Over https, rypsok-egress terminates the upstream TLS itself (decrypts, judges, re-streams in clear over its Unix socket);")
	fmt.Fprintln(w, "smokescreen only relays a CONNECT tunnel, so its TLS work is done by the client (counted in client+upstream CPU).")
	fmt.Fprintln(w, "Proxy CPU is utime+stime of the proxy process during the measured fetches (10 ms ticks); peak RSS is its VmHWM;")
	fmt.Fprintln(w, "each row starts a fresh proxy process. The client and the upstream share this process and the machine's cores.")
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimLeft(v, "\t :"))
		}
	}
	return "unknown CPU"
}

func smokescreenVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/stripe/smokescreen" {
				return d.Version
			}
		}
	}
	return "unknown"
}

func (b *bench) dumpLogs() {
	for _, l := range b.logs {
		data, err := os.ReadFile(l)
		if err != nil || len(data) == 0 {
			continue
		}
		if len(data) > 2000 {
			data = data[len(data)-2000:]
		}
		fmt.Fprintf(os.Stderr, "--- %s (tail)\n%s\n", l, data)
	}
}
