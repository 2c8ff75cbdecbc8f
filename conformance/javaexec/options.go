package javaexec

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"
)

// Options configures one executor process.
type Options struct {
	// Version selects the jar, e.g. "2.4.2" (see Versions).
	Version string
	// AdminAddress is the admin base URL the executor registers with, e.g.
	// "http://127.0.0.1:8080/xxl-job-admin"; several may be comma-separated. The library appends "/api/...".
	AdminAddress string
	// AccessToken is sent as XXL-JOB-ACCESS-TOKEN and required on incoming calls; empty means none.
	AccessToken string
	// AppName is the executor's registry key; default "xxl-job-executor-sample".
	AppName string
	// Port is the executor's HTTP port (required; see FreePort).
	Port int
	// Address is the registry address the executor announces; default "http://127.0.0.1:<Port>/".
	Address string
	// LogDir receives the executor's job log files (required; tests pass t.TempDir()).
	LogDir string
	// RunLog is the run ledger the handlers append each run to (see Executor.Runs); default a file in
	// LogDir.
	RunLog string
	// LogRetentionDays is passed through when > 0; the library ignores values below 3.
	LogRetentionDays int
	// StartTimeout bounds the wait for the started line; default 60s.
	StartTimeout time.Duration
	// StopTimeout bounds the wait after SIGTERM before Stop kills; default 20s (3.x waits 5s for
	// running jobs during shutdown).
	StopTimeout time.Duration
	// JavaBin is the java launcher; default "java" from PATH.
	JavaBin string
	// JVMArgs are placed before -jar, e.g. "-Duser.timezone=Asia/Shanghai".
	JVMArgs []string
}

const (
	defaultAppName      = "xxl-job-executor-sample"
	defaultStartTimeout = 60 * time.Second
	defaultStopTimeout  = 20 * time.Second
)

// defaultJVMArgs favour start-up time and a small footprint: the executor does little work, and
// the test machines have two cores.
func defaultJVMArgs() []string {
	return []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"}
}

// withDefaults validates o and fills the optional fields.
func (o Options) withDefaults() (Options, error) {
	if o.Version == "" {
		return o, errors.New("javaexec: Options.Version is required")
	}
	if o.AdminAddress == "" {
		return o, errors.New("javaexec: Options.AdminAddress is required")
	}
	if o.Port <= 0 || o.Port > 65535 {
		return o, fmt.Errorf("javaexec: Options.Port %d out of range", o.Port)
	}
	if o.LogDir == "" {
		return o, errors.New("javaexec: Options.LogDir is required")
	}
	if o.AppName == "" {
		o.AppName = defaultAppName
	}
	if o.Address == "" {
		o.Address = "http://127.0.0.1:" + strconv.Itoa(o.Port) + "/"
	}
	if o.RunLog == "" {
		o.RunLog = filepath.Join(o.LogDir, runLogName)
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = defaultStartTimeout
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = defaultStopTimeout
	}
	if o.JavaBin == "" {
		o.JavaBin = "java"
	}
	return o, nil
}

// commandArgs builds the java command line; the flags are the --key=value set the Main class of
// conformance/java understands.
func (o Options) commandArgs(jar string) []string {
	args := append(defaultJVMArgs(), o.JVMArgs...)
	args = append(args, "-jar", jar,
		"--admin="+o.AdminAddress,
		"--token="+o.AccessToken,
		"--appname="+o.AppName,
		"--port="+strconv.Itoa(o.Port),
		"--ip=127.0.0.1",
		"--address="+o.Address,
		"--logpath="+o.LogDir,
		"--runlog="+o.RunLog,
	)
	if o.LogRetentionDays > 0 {
		args = append(args, "--logretention="+strconv.Itoa(o.LogRetentionDays))
	}
	return args
}
