package javaexec

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOptionsWithDefaults(t *testing.T) {
	valid := Options{Version: "2.4.2", AdminAddress: "http://127.0.0.1:1/xxl-job-admin", Port: 9999, LogDir: "/tmp/l"}
	tests := []struct {
		name    string
		mutate  func(*Options)
		wantErr string
		check   func(*testing.T, Options)
	}{
		{name: "defaults filled", mutate: func(*Options) {}, check: func(t *testing.T, o Options) {
			if o.AppName != defaultAppName || o.Address != "http://127.0.0.1:9999/" || o.JavaBin != "java" ||
				o.StartTimeout != defaultStartTimeout || o.StopTimeout != defaultStopTimeout {
				t.Errorf("defaults not applied: %+v", o)
			}
		}},
		{name: "explicit values kept", mutate: func(o *Options) {
			o.AppName, o.Address, o.StartTimeout = "app", "http://h:1/", time.Second
		}, check: func(t *testing.T, o Options) {
			if o.AppName != "app" || o.Address != "http://h:1/" || o.StartTimeout != time.Second {
				t.Errorf("explicit values overwritten: %+v", o)
			}
		}},
		{name: "no version", mutate: func(o *Options) { o.Version = "" }, wantErr: "Version"},
		{name: "no admin", mutate: func(o *Options) { o.AdminAddress = "" }, wantErr: "AdminAddress"},
		{name: "no port", mutate: func(o *Options) { o.Port = 0 }, wantErr: "Port"},
		{name: "port too big", mutate: func(o *Options) { o.Port = 70000 }, wantErr: "Port"},
		{name: "no log dir", mutate: func(o *Options) { o.LogDir = "" }, wantErr: "LogDir"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := valid
			tc.mutate(&o)
			got, err := o.withDefaults()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, got)
		})
	}
}

func TestCommandArgs(t *testing.T) {
	o, err := Options{Version: "2.4.2", AdminAddress: "http://a/x", AccessToken: "", AppName: "app",
		Port: 1234, LogDir: "/l", LogRetentionDays: 7, JVMArgs: []string{"-Dk=v"}}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	args := o.commandArgs("/j.jar")
	jar := slices.Index(args, "-jar")
	if jar < 0 || args[jar+1] != "/j.jar" {
		t.Fatalf("no -jar /j.jar in %q", args)
	}
	if k := slices.Index(args, "-Dk=v"); k < 0 || k > jar {
		t.Errorf("JVM arg must precede -jar: %q", args)
	}
	// An empty token is still passed explicitly so the executor runs without one.
	for _, want := range []string{"--admin=http://a/x", "--token=", "--appname=app", "--port=1234",
		"--address=http://127.0.0.1:1234/", "--logpath=/l", "--runlog=/l/" + runLogName, "--logretention=7"} {
		if i := slices.Index(args, want); i <= jar {
			t.Errorf("missing %q after -jar in %q", want, args)
		}
	}
}
