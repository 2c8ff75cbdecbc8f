// Package javaadmin runs whole admins as processes for side-by-side tests:
// the official admin jars 2.4.2 and 3.4.2 (the oracles, kept in
// ../shared/reference) and our admin binary, each with TZ=Asia/Shanghai on
// a database of the test's choosing, ready once its login page answers
// 200 (2.4.2: <context path>/toLogin; 3.4.2: /auth/login, Settings.ReadyPath).
//
// A test that needs the Java admin calls Require (Require342 for 3.4.2),
// which skips with "[suite-off]" unless XXL_TEST_JAVA=1 and java is on
// PATH, and returns the jar's path. consolereplay, the mixed cluster, the
// drop-in and the API comparison tests all start their admins through
// this package; conformance/record342 records the 3.4.2 console with it.
package javaadmin
