// Package version is the version both binaries report: the one stamped at
// build time with
// -ldflags "-X github.com/rypsok/rypsok/shared/version.stamp=v1.2.3",
// else the module version, else "devel".
package version

import "runtime/debug"

var stamp = ""

// String reports the version.
func String() string {
	if stamp != "" {
		return stamp
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
