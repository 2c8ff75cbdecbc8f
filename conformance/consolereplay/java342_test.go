package consolereplay

import (
	"os"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestReplayJava342 replays every 3.4.2 recording against the real Java
// admin 3.4.2, one process per language on a fresh MariaDB database with
// the release's tables: it proves the 3.4.2 harness (fixture, plan, setup
// logins and token mapping, comparison) before it judges our 3.x console.
// Pointing it at our admin is a matter of the target (and, for SQLite,
// of Gen342.OpenDB).
func TestReplayJava342(t *testing.T) {
	jar := javaadmin.Require342(t)
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the Java admin 3.4.2 replay needs " + storetest.EnvMySQL)
	}
	RequireSchema342(t)
	cluster.Exclusive(t)
	for _, plan := range Gen342.Plans() {
		t.Run(plan.Lang, func(t *testing.T) {
			t.Parallel()
			url, user, pass := storetest.MySQLURLZone(t, Zone)
			replayPlan(t, Gen342, javaadmin.Java{Jar: jar}, plan,
				database{url + "&useUnicode=true&characterEncoding=UTF-8", user, pass}, CookieJava, nil)
		})
	}
}
