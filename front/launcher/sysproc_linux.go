package launcher

import "syscall"

// sysProcAttr puts the egress in its own process group (a terminal's
// Ctrl-C reaches rypsok only) and has it receive SIGTERM when the thread
// that started it, and so rypsok, ends.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
