package consolereplay

import (
	"os"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestReplayJava replays every recording against the real Java admin
// 2.4.2, one process per language on a fresh MariaDB database: it proves
// the harness (fixture, scenario order, setup hooks, comparison) before it
// judges our console.
func TestReplayJava(t *testing.T) {
	jar := javaadmin.Require(t)
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the Java admin replay needs " + storetest.EnvMySQL)
	}
	cluster.Exclusive(t)
	for _, plan := range Plans() {
		t.Run(plan.Lang, func(t *testing.T) {
			t.Parallel()
			url, user, pass := storetest.MySQLURLZone(t, Zone)
			replayPlan(t, Gen242, javaadmin.Java{Jar: jar}, plan, database{url + "&useUnicode=true&characterEncoding=UTF-8", user, pass}, CookieJava, nil)
		})
	}
}
