package consolereplay

import (
	"os"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestReplayOurs replays every recording against our admin: on MariaDB and
// SQLite, with the Java cookie format (legacy) and with our own signed
// cookies (default). Differences listed in Tolerances are accepted.
func TestReplayOurs(t *testing.T) {
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
			url, user, pass := storetest.MySQLURLZone(t, Zone)
			return database{url + "&useUnicode=true&characterEncoding=UTF-8", user, pass}
		}},
		{"sqlite", func(t *testing.T) database {
			return database{url: storetest.SQLiteURL(t, "serverTimezone="+Zone)}
		}},
	}
	for _, b := range backends {
		for _, mode := range []CookieMode{CookieJava, CookieSigned} {
			t.Run(b.name+"/"+mode.String(), func(t *testing.T) {
				for _, plan := range Plans() {
					t.Run(plan.Lang, func(t *testing.T) {
						t.Parallel()
						target := javaadmin.Ours{Bin: bin, LegacyCookie: mode == CookieJava}
						replayPlan(t, Gen242, target, plan, b.open(t), mode, Tolerances)
					})
				}
			})
		}
	}
}
