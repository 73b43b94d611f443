//go:build !linux

package launcher

import "syscall"

// sysProcAttr puts the egress in its own process group (a terminal's
// Ctrl-C reaches rypsok only). Outside Linux there is no parent-death
// signal: an egress whose rypsok died without Close keeps running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
