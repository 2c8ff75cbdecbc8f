// Package console is the web console of the 2.4.2 admin: every page and
// JSON endpoint of its controllers under the same paths, parameters,
// answers and messages (console.md), with the login cookie, the group
// permissions and the error rendering of the Java admin — and, on purpose,
// safer than it: signed session cookies, group permissions on every
// endpoint, cross-site requests refused, no internal error text sent to a
// client, and pages that never run data as script.
//
// One file per Java controller (index, jobinfo, jobgroup, joblog, jobcode,
// user); routes.go lists every route.
package console
