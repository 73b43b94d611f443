package deploykubernetes

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary a helper process of
// TestTheFirewallWorks: "serve ADDR" (accept and answer until killed) or
// "connect ADDR" (exit 0 connected, 3 refused, 4 any other failure).
const helperEnv = "RYPSOK_FIREWALL_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode, os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

func helper(mode, addr string) int {
	switch mode {
	case "serve":
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Println("error:", err)
			return 4
		}
		fmt.Println("listening")
		for {
			c, err := ln.Accept()
			if err != nil {
				return 4
			}
			io.WriteString(c, "ok")
			c.Close()
		}
	case "connect":
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if errors.Is(err, syscall.ECONNREFUSED) {
			return 3
		}
		if err != nil {
			fmt.Println("error:", err)
			return 4
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		b, _ := io.ReadAll(c)
		if string(b) != "ok" {
			fmt.Printf("read %q\n", b)
			return 4
		}
		return 0
	}
	return 4
}

// TestTheFirewallWorks loads the firewall ConfigMap's rules with
// iptables-nft-restore and ip6tables-nft-restore into a network namespace
// standing for the pod, joined by a veth pair to one standing for the
// internet, and checks them in action: rypsok's user (and root) cannot
// open a connection out, except to Redis's port (the shared state), the
// egress's user can, over IPv4 and IPv6;
// loopback is open to all; a caller outside reaches rypsok's listener.
// It needs root, ip, setpriv and the two restore commands (CI installs
// iptables); elsewhere it is skipped.
func TestTheFirewallWorks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root (network namespaces)")
	}
	for _, cmd := range []string{"ip", "setpriv", "iptables-nft-restore", "ip6tables-nft-restore"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("needs %s", cmd)
		}
	}
	m := loadManifests(t)
	pod := m.pod(t)
	frontUID := *container(t, pod, frontContainer).SecurityContext.RunAsUser
	egressUID := *container(t, pod, egressContainer).SecurityContext.RunAsUser
	group := *container(t, pod, frontContainer).SecurityContext.RunAsGroup

	// A copy of the test binary that the pod's users may run.
	dir, err := os.MkdirTemp("", "rypsok-firewall-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "helper")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}

	id := os.Getpid() % 100000
	podNS, netNS := fmt.Sprintf("rypsok-pod-%d", id), fmt.Sprintf("rypsok-net-%d", id)
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("ip", "netns", "add", podNS)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", podNS).Run() })
	run("ip", "netns", "add", netNS)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", netNS).Run() })
	vpod, vnet := fmt.Sprintf("rfp%d", id), fmt.Sprintf("rfn%d", id)
	run("ip", "link", "add", vpod, "type", "veth", "peer", "name", vnet)
	run("ip", "link", "set", vpod, "netns", podNS)
	run("ip", "link", "set", vnet, "netns", netNS)
	for _, c := range [][]string{
		{podNS, "addr", "add", "10.200.0.1/24", "dev", vpod},
		{podNS, "addr", "add", "fd00:200::1/64", "dev", vpod, "nodad"},
		{netNS, "addr", "add", "10.200.0.2/24", "dev", vnet},
		{netNS, "addr", "add", "fd00:200::2/64", "dev", vnet, "nodad"},
		{podNS, "link", "set", "lo", "up"},
		{netNS, "link", "set", "lo", "up"},
		{podNS, "link", "set", vpod, "up"},
		{netNS, "link", "set", vnet, "up"},
	} {
		run(append([]string{"ip", "-n", c[0]}, c[1:]...)...)
	}
	rules := m.configMap(t, firewallConfig).Data
	for family, restore := range map[string]string{"rules.v4": "iptables-nft-restore", "rules.v6": "ip6tables-nft-restore"} {
		f := filepath.Join(dir, family)
		if err := os.WriteFile(f, []byte(rules[family]), 0o644); err != nil {
			t.Fatal(err)
		}
		run("ip", "netns", "exec", podNS, restore, "--noflush", f)
	}

	// as runs the helper in ns, as uid (-1: root).
	as := func(ns string, uid int64, mode, addr string) *exec.Cmd {
		args := []string{"netns", "exec", ns}
		if uid >= 0 {
			args = append(args, "setpriv", fmt.Sprintf("--reuid=%d", uid), fmt.Sprintf("--regid=%d", group), "--clear-groups")
		}
		cmd := exec.Command("ip", append(args, bin, addr)...)
		cmd.Env = append(os.Environ(), helperEnv+"="+mode)
		return cmd
	}
	serve := func(ns string, uid int64, addr string) {
		t.Helper()
		cmd := as(ns, uid, "serve", addr)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		if line, _ := bufio.NewReader(out).ReadString('\n'); line != "listening\n" {
			t.Fatalf("server %s in %s: %q", addr, ns, line)
		}
	}
	serve(netNS, -1, "10.200.0.2:443")
	serve(netNS, -1, "[fd00:200::2]:443")
	serve(netNS, -1, "10.200.0.2:6379")
	serve(netNS, -1, "10.200.0.2:8080")
	serve(podNS, -1, "127.0.0.1:9999")
	serve(podNS, frontUID, ":8765")

	for _, tc := range []struct {
		name string
		ns   string
		uid  int64
		addr string
		want int // the helper's exit code
	}{
		{"rypsok's user, out over IPv4", podNS, frontUID, "10.200.0.2:443", 3},
		{"rypsok's user, out over IPv6", podNS, frontUID, "[fd00:200::2]:443", 3},
		{"rypsok's user, to another port", podNS, frontUID, "10.200.0.2:8080", 3},
		{"rypsok's user, to Redis", podNS, frontUID, "10.200.0.2:6379", 0},
		{"root, out", podNS, 0, "10.200.0.2:443", 3},
		{"root, to Redis", podNS, 0, "10.200.0.2:6379", 3},
		{"the egress's user, out over IPv4", podNS, egressUID, "10.200.0.2:443", 0},
		{"the egress's user, out over IPv6", podNS, egressUID, "[fd00:200::2]:443", 0},
		{"rypsok's user, on loopback", podNS, frontUID, "127.0.0.1:9999", 0},
		{"a caller, in to rypsok over IPv4", netNS, -1, "10.200.0.1:8765", 0},
		{"a caller, in to rypsok over IPv6", netNS, -1, "[fd00:200::1]:8765", 0},
	} {
		out, err := as(tc.ns, tc.uid, "connect", tc.addr).CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.want {
			t.Errorf("%s (%s): exit %d, want %d (0 connected, 3 refused)\n%s", tc.name, tc.addr, code, tc.want, out)
		}
	}
}
