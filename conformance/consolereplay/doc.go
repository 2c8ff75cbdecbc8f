// Package consolereplay replays the recorded web-console traffic of the
// real Java admins against an admin and compares every answer: 2.4.2
// (conformance/testdata/recordings/java-admin-2.4.2) and 3.4.2
// (java-admin-3.4.2, made by conformance/record342); README.md beside
// each describes its files. A Generation holds what differs between the
// two (context path, tables and fixture, login cookie, executor answers,
// plan); everything below is shared.
//
// A replay of one language loads the recorder's fixture (Fixture,
// Fixture342) into a fresh database, starts a fake executor (FakeExecutor)
// that the fixture's groups and logs point at, starts the admin
// (javaadmin.Target: the Java jar or our binary, TZ=Asia/Shanghai) and
// then runs the language's Plan: the
// scenarios in the order the recorder ran them against one admin process,
// with the rows the recorder inserted by SQL and the effects of held-back
// scenarios reproduced by Hooks at the point they happened (plan.go holds
// the evidence for the order). Each recorded request is sent as recorded,
// with our executor's address, dates moved to the replay's time and the
// login cookie mapped for the admin under test (CookieMapper: 2.4.2's
// cookie carries the user row; a 3.4.2 token is random and kept on the
// server, so the replay makes the recorder's logins and maps the tokens);
// redirects are not followed.
//
// Compared per exchange: the status, Content-Type, Location, Allow and
// Content-Language headers, every Set-Cookie attribute (Expires only by
// presence), the JSON body (every key and value, key order ignored), the
// page <title>, the message of the admin's error page and the db_after
// rows, read with the recorder's queries right after the exchange; per
// scenario, what the admin sent to the fake executor. Values the
// recordings call volatile (dates, ids, next trigger times, chart data)
// are compared by shape, and dates also by their distance to the fixture
// time (volatile.go). Mismatches name scenario, exchange, note, field,
// want and got.
//
// TestReplayJava and TestReplayJava342 run it against the jars and prove
// the harness; TestReplayOurs runs the 2.4.2 recordings against our admin,
// where the deliberate differences in Tolerances are accepted (a 3.x
// replay of ours is replayPlan with Gen342 and the Ours target).
package consolereplay
