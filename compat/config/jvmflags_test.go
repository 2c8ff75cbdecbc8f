package config

import (
	"slices"
	"testing"
)

// TestJavaOptsJVMFlags: the official image runs `java -jar $JAVA_OPTS /app.jar
// $PARAMS` (config.md §1), so JAVA_OPTS mixes -D system properties, which
// are read, with JVM flags, which are kept aside for one info line.
func TestJavaOptsJVMFlags(t *testing.T) {
	cases := []struct {
		name      string
		javaOpts  string
		wantFlags []string
		wantToken string
	}{
		{"none", "", nil, "default_token"},
		{"only -D", "-Dxxl.job.accessToken=t1", nil, "t1"},
		{"mixed", "-Xmx512m -Dxxl.job.accessToken=t2 -XX:+UseG1GC -server", []string{"-Xmx512m", "-XX:+UseG1GC", "-server"}, "t2"},
		{"quoted value", `-Xms64m "-Dxxl.job.accessToken=a b"`, []string{"-Xms64m"}, "a b"},
		{"-D without value is empty", "-Dxxl.job.accessToken", nil, ""},
		{"bare -D is a flag", "-D", []string{"-D"}, "default_token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(fakeEnv(nil, []string{"JAVA_OPTS=" + tc.javaOpts}, nil))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.IgnoredJVMFlags, tc.wantFlags) {
				t.Errorf("IgnoredJVMFlags = %q, want %q", c.IgnoredJVMFlags, tc.wantFlags)
			}
			if c.AccessToken != tc.wantToken {
				t.Errorf("AccessToken = %q, want %q", c.AccessToken, tc.wantToken)
			}
		})
	}
}
