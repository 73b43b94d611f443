package launcher

import "syscall"

// sysProcAttr puts the egress in its own process group, so that a
// terminal's Ctrl-C reaches rypsok only and the launcher decides when the
// egress stops. That rypsok died is told by the lifeline (see spawn), not
// by a signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
