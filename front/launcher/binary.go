package launcher

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// binaryName is the egress executable's file name.
const binaryName = "rypsok-egress"

// resolveBinary finds the egress executable named by Options.Binary.
func resolveBinary(name string) (string, error) {
	if name != "" {
		path, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrBinaryNotFound, err)
		}
		return filepath.Abs(path)
	}
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return findBinary(exe)
}

// findBinary returns the rypsok-egress beside exe (when exe is not ""),
// else the one on PATH.
func findBinary(exe string) (string, error) {
	beside := ""
	if exe != "" {
		beside = filepath.Join(filepath.Dir(exe), binaryName)
		if isExecutable(beside) {
			return beside, nil
		}
	}
	path, err := exec.LookPath(binaryName)
	if err == nil {
		return filepath.Abs(path)
	}
	if beside == "" {
		return "", fmt.Errorf("%w: not on PATH (%w)", ErrBinaryNotFound, err)
	}
	return "", fmt.Errorf("%w: not at %s (beside %s) and not on PATH (%w)", ErrBinaryNotFound, beside, exe, err)
}

// isExecutable reports whether path is a regular file someone may execute.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// ResolveBinary finds the egress executable as Start would for
// Options.Binary name: a caller that starts the egress in the background
// calls it first, to fail at once when there is none.
func ResolveBinary(name string) (string, error) { return resolveBinary(name) }
