package consolereplay

import (
	"os"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestReplayOurs342 replays every 3.4.2 recording against our admin on a
// 3.x database: on MariaDB with the release's tables (as the jar's
// replays) and on SQLite with ours. The deliberate differences in
// Tolerances342 are accepted; each language's log line gives the count of
// equal exchanges.
func TestReplayOurs342(t *testing.T) {
	bin, err := cluster.BuildAdmin(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	backends := []struct {
		name string
		open func(t *testing.T) database
	}{
		{"mariadb", func(t *testing.T) database {
			if os.Getenv(storetest.EnvMySQL) == "" {
				t.Skip("[suite-off] MariaDB replay needs " + storetest.EnvMySQL)
			}
			RequireSchema342(t) // the release's DDL, MariaDB only
			url, user, pass := storetest.MySQLURLZone(t, Zone)
			return database{url + "&useUnicode=true&characterEncoding=UTF-8", user, pass}
		}},
		{"sqlite", func(t *testing.T) database {
			return database{url: storetest.SQLiteURL(t, "serverTimezone="+Zone)}
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for _, plan := range Gen342.Plans() {
				t.Run(plan.Lang, func(t *testing.T) {
					t.Parallel()
					replayPlan(t, Gen342, javaadmin.Ours{Bin: bin}, plan, b.open(t), CookieSigned, Tolerances342)
				})
			}
		})
	}
}
