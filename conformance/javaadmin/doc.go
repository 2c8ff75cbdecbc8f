// Package javaadmin runs whole admins as processes for side-by-side tests:
// the official 2.4.2 admin jar (the oracle, kept in ../shared/reference)
// and our admin binary, each with TZ=Asia/Shanghai on a database of the
// test's choosing, ready once GET <context path>/toLogin answers 200.
//
// A test that needs the Java admin calls Require, which skips with
// "[suite-off]" unless XXL_TEST_JAVA=1 and java is on PATH, and returns the
// jar's path. consolereplay, the mixed cluster, the drop-in and the API
// comparison tests all start their admins through this package.
package javaadmin
