package app

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Stamped by the linker (`-X .../app.version=...`, see mk/dist.mk); these are
// the only package variables of app and nothing assigns them at run time.
// Empty values fall back to the build information the go command records.
var (
	version string
	commit  string
	date    string
)

// BuildInfo says which build this binary is: for `--version`, the start-up
// log and bug reports.
type BuildInfo struct {
	Version string // release version, e.g. 1.2.0, or 0.0.0-dev
	Commit  string // git commit the binary was built from
	Date    string // commit time, RFC 3339 UTC
	Go      string // Go toolchain, e.g. go1.26.8
	OS      string
	Arch    string
}

// Build returns the stamped build information, filling gaps from the
// version-control data `go build` embeds in a git checkout.
func Build() BuildInfo {
	b := BuildInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if b.Version == "" && modified && b.Commit != "" {
			b.Commit += "-dirty"
		}
	}
	if b.Version == "" {
		b.Version = "0.0.0-dev"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	if b.Date == "" {
		b.Date = "unknown"
	}
	return b
}

// String is the one line `xxl-admin-go --version` prints.
func (b BuildInfo) String() string {
	return fmt.Sprintf("xxl-admin-go %s (commit %s, built %s, %s %s/%s)", b.Version, b.Commit, b.Date, b.Go, b.OS, b.Arch)
}

func printVersion(stdout io.Writer) int {
	_, _ = fmt.Fprintln(stdout, Build())
	return 0
}
