package launcher

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// dirPrefix starts the name of every private directory the launcher
// makes: dirPrefix, the pid of the rypsok that made it, "-", and
// os.MkdirTemp's random digits ("rypsok-egress-4242-1234567890"). The pid
// lets a later rypsok tell a directory whose owner died without Close
// (SIGKILL, a crash) from one that is in use.
const dirPrefix = "rypsok-egress-"

// newDir makes this process's private directory (mode 0700) under the
// temporary directory.
func newDir() (string, error) {
	return os.MkdirTemp("", fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
}

// ownerPID returns the pid a private directory's name records, and
// whether name is one of ours at all.
func ownerPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, dirPrefix)
	if !ok {
		return 0, false
	}
	pid, random, ok := strings.Cut(rest, "-")
	if !ok || !digits(pid) || !digits(random) {
		return 0, false
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// processAlive reports whether a process pid exists. A process of another
// user (EPERM) exists; a zombie still counts as alive. Only "no such
// process" is dead, so a doubt keeps the directory.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

// staleDirs returns the private directories in parent that a dead rypsok
// left: only entries that are ours by name, real directories (a symbolic
// link is never followed or taken), mode 0700, owned by uid, and whose
// recorded owner pid is not alive. A live process's directory, this
// process's included, is never returned.
func staleDirs(parent string, uid int, alive func(pid int) bool) []string {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var out []string
	for _, ent := range entries {
		pid, ok := ownerPID(ent.Name())
		if !ok || !ent.IsDir() || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(parent, ent.Name())
		fi, err := os.Lstat(path)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || int(st.Uid) != uid || alive(pid) {
			continue
		}
		out = append(out, path)
	}
	return out
}

// removeStaleDirs removes what staleDirs finds in the temporary
// directory, for this process's uid, and logs each removal. os.RemoveAll
// removes a link inside as a link, never what it points to.
func (o Options) removeStaleDirs() {
	for _, dir := range staleDirs(os.TempDir(), os.Getuid(), processAlive) {
		err := os.RemoveAll(dir)
		ev := o.Log.Info()
		if err != nil {
			ev = o.Log.Warn().Err(err)
		}
		ev.Str(fieldEvent, eventStaleRemoved).Str(fieldDir, dir).Send()
	}
}
