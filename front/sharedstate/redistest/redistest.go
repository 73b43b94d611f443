// Package redistest starts a real redis-server for tests: on a free
// loopback port, in a temporary directory, with no persistence, stopped
// at the test's cleanup. redis-server must be installed (Debian's
// redis-server package; .ci/run installs it): a test that needs it fails,
// and says so, where it is missing; it is never skipped.
package redistest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// Server is a redis-server a test started.
type Server struct {
	t    testing.TB
	port int
	dir  string

	mu  sync.Mutex
	cmd *exec.Cmd
}

// Start starts a redis-server on a free loopback port; it is killed at
// t's cleanup.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatal("redis-server is not installed: apt-get install -y redis-server (the shared-state tests need a real one; .ci/run installs it)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, port: ln.Addr().(*net.TCPAddr).Port, dir: t.TempDir()}
	ln.Close()
	s.Restart()
	t.Cleanup(s.Kill)
	return s
}

// URL is the server's redis:// URL, database 0.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Kill kills the server at once (SIGKILL: as a crashed Redis); the next
// Restart starts it again, empty, on the same port.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGCONT) // a paused server dies too
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// Pause stops the server without closing its connections (SIGSTOP: a
// Redis that hangs) until Resume.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume resumes a paused server.
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		s.cmd.Process.Signal(sig)
	}
}

// Restart starts the server (again) on its port and returns once it
// accepts connections.
func (s *Server) Restart(args ...string) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	cmd := exec.Command("redis-server",
		append([]string{
			"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
			"--dir", s.dir, "--save", "", "--appendonly", "no",
			"--daemonize", "no", "--logfile", "", "--loglevel", "notice",
		}, args...)...)
	out, w, err := os.Pipe()
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		out.Close()
		s.t.Fatalf("redis-server: %v", err)
	}
	// Ready when it says so; its log then drains until it exits.
	sc := bufio.NewScanner(out)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "Ready to accept connections") {
			go func() {
				io.Copy(io.Discard, out)
				out.Close()
			}()
			s.cmd = cmd
			return
		}
	}
	cmd.Wait()
	out.Close()
	s.t.Fatalf("redis-server did not start:\n%s", strings.Join(lines, "\n"))
}
