package schema

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestParseJDBCPostgres checks the translation of a PgJDBC URL into a pgx
// DSN, read back through pgx.ParseConfig: hosts and ports (failover lists
// too), database, credentials (arguments win over URL parameters),
// currentSchema as search_path, TLS, timeouts, and the zone of the
// timestamp columns (serverTimezone, or TimeZone in options).
func TestParseJDBCPostgres(t *testing.T) {
	type want struct {
		host        string
		port        uint16
		db, user    string
		pass        string
		zone        string
		tls         bool
		params      map[string]string // runtime parameters that must be sent
		fallbacks   int
		sessionAttr string
	}
	cases := []struct {
		name, url, user, pass string
		want                  want
	}{
		{"plain", "jdbc:postgresql://db.example:5433/xxl_job?sslmode=disable&serverTimezone=Asia/Shanghai", "u", "p",
			want{host: "db.example", port: 5433, db: "xxl_job", user: "u", pass: "p", zone: "Asia/Shanghai",
				params: map[string]string{"application_name": "xxl-admin-go"}}},
		{"no port, schema, name", "jdbc:postgresql://h/xxl_job?currentSchema=xxl&ApplicationName=ops&sslmode=disable", "u", "p",
			want{host: "h", port: 5432, db: "xxl_job", user: "u", pass: "p", zone: "Local",
				params: map[string]string{"search_path": "xxl", "application_name": "ops"}}},
		{"local server shorthand", "jdbc:postgresql:xxl_job?sslmode=disable", "u", "", want{host: "localhost", port: 5432,
			db: "xxl_job", user: "u", zone: "Local"}},
		{"credentials in the URL", "jdbc:postgresql://h:5432/xxl_job?user=a&password=b&sslmode=disable", "", "",
			want{host: "h", port: 5432, db: "xxl_job", user: "a", pass: "b", zone: "Local"}},
		{"arguments win over the URL", "jdbc:postgresql://h:5432/xxl_job?user=a&password=b&sslmode=disable", "u", "p",
			want{host: "h", port: 5432, db: "xxl_job", user: "u", pass: "p", zone: "Local"}},
		{"IPv6", "jdbc:postgresql://[::1]:5434/xxl_job?sslmode=disable", "u", "p",
			want{host: "::1", port: 5434, db: "xxl_job", user: "u", pass: "p", zone: "Local"}},
		{"failover, primary", "jdbc:postgresql://a:5432,b:5433/xxl_job?targetServerType=primary&sslmode=disable", "u", "p",
			want{host: "a", port: 5432, db: "xxl_job", user: "u", pass: "p", zone: "Local", fallbacks: 1, sessionAttr: "primary"}},
		{"TimeZone in options", "jdbc:postgresql://h/xxl_job?options=-c%20TimeZone%3DUTC&sslmode=disable", "u", "p",
			want{host: "h", port: 5432, db: "xxl_job", user: "u", pass: "p", zone: "UTC",
				params: map[string]string{"options": "-c TimeZone=UTC"}}},
		{"PRC, quote in the password", "jdbc:postgresql://h/xxl_job?serverTimezone=PRC&sslmode=disable", "u", `it's\`,
			want{host: "h", port: 5432, db: "xxl_job", user: "u", pass: `it's\`, zone: "Asia/Shanghai"}},
		{"sslmode require", "jdbc:postgresql://h/xxl_job?sslmode=require", "u", "p",
			want{host: "h", port: 5432, db: "xxl_job", user: "u", pass: "p", zone: "Local", tls: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target, err := ParseJDBC(c.url, c.user, c.pass)
			if err != nil {
				t.Fatal(err)
			}
			if target.Backend != Postgres || target.Driver != "pgx" {
				t.Errorf("backend %q driver %q", target.Backend, target.Driver)
			}
			if c.want.pass != "" && (!strings.Contains(target.Display, "password='****'") || strings.Contains(target.Display, "it's")) {
				t.Errorf("display %q does not mask the password", target.Display)
			}
			if got := target.Loc.String(); got != c.want.zone {
				t.Errorf("zone %s, want %s", got, c.want.zone)
			}
			cfg, err := pgx.ParseConfig(target.DSN)
			if err != nil {
				t.Fatalf("pgx cannot parse %q: %v", target.DSN, err)
			}
			w := c.want
			if cfg.Host != w.host || cfg.Port != w.port || cfg.Database != w.db || cfg.User != w.user || cfg.Password != w.pass {
				t.Errorf("host %q port %d db %q user %q pass %q, want %+v", cfg.Host, cfg.Port, cfg.Database, cfg.User, cfg.Password, w)
			}
			if (cfg.TLSConfig != nil) != w.tls {
				t.Errorf("TLS %v, want %v", cfg.TLSConfig != nil, w.tls)
			}
			if cfg.ConnectTimeout.Seconds() != 10 {
				t.Errorf("connect timeout %s, want PgJDBC's 10 s", cfg.ConnectTimeout)
			}
			for k, v := range w.params {
				if cfg.RuntimeParams[k] != v {
					t.Errorf("runtime parameter %s = %q, want %q", k, cfg.RuntimeParams[k], v)
				}
			}
			if len(cfg.Fallbacks) != w.fallbacks {
				t.Errorf("%d fallback hosts, want %d", len(cfg.Fallbacks), w.fallbacks)
			}
			if w.sessionAttr != "" && cfg.ValidateConnect == nil {
				t.Errorf("targetServerType %s: no session check", w.sessionAttr)
			}
		})
	}
}
