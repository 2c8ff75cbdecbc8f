// Package upgrade checks the upgrade in place of a 2.4.2 database to the
// 3.4.2 schema (`xxl-admin-go db upgrade --to 3.4`) with the real admins
// around it: on a MariaDB database made by the 2.4.2 release's script and
// holding 100,000 log rows, the Java admin 2.4.2 and ours run, log in and
// fire a job, and the upgrade is refused while they do; once they have
// stopped it runs (timed per step), and then the Java admin 3.4.2 and ours
// start on the upgraded database: ours finds a 3.4 database and fires a
// job, the Java admin fires one and lists every log row written before the
// upgrade, and the admin user, given a SHA-256 password by the statement
// the tool printed, logs in on both.
//
// The Java admin 3.4.2 serves at / and is ready when GET /auth/login
// answers 200; this package starts it (and ours on the 3.4 database)
// itself, since javaadmin's readiness is 2.4.2's.
package upgrade
