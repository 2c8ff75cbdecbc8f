// Package javaexec starts and stops real xxl-job Java executors (built by conformance/java/build.sh
// from the published com.xuxueli:xxl-job-core artifacts) so live conformance tests can point them at
// the Go admin and observe genuine executor traffic.
//
// A test typically does:
//
//	port, _ := javaexec.FreePort()
//	e, err := javaexec.Start(ctx, javaexec.Options{Version: "2.4.2", AdminAddress: adminURL,
//		AccessToken: "tok", AppName: "app", Port: port, LogDir: t.TempDir()})
//	defer e.Kill()
//	... drive the admin, which talks to e.Address() ...
//	err = e.Stop() // SIGTERM: the executor sends registryRemove before exiting
//
// Tests that need Java should skip unless XXL_TEST_JAVA=1 (see EnvEnabled).
package javaexec
