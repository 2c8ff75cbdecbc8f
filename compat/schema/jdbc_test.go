package schema

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestParseJDBCMySQL checks the translation of spring.datasource.url
// (config.md) into a go-sql-driver DSN: found-rows semantics and utf8mb4
// always (schema.md §3), the zone from serverTimezone, TLS and timeouts.
func TestParseJDBCMySQL(t *testing.T) {
	const def = "jdbc:mysql://127.0.0.1:3306/xxl_job?useUnicode=true&characterEncoding=UTF-8&autoReconnect=true&serverTimezone=Asia/Shanghai"
	type want struct {
		addr, db, user, pass, zone, charset, tls string
		offset                                   int // seconds east of UTC in January, when zone is a fixed offset
		timeout, readTimeout                     time.Duration
	}
	base := want{addr: "127.0.0.1:3306", db: "xxl_job", user: "root", pass: "root_pwd", zone: "Asia/Shanghai",
		offset: 8 * 3600, charset: "utf8mb4", tls: "preferred", timeout: 10 * time.Second}
	with := func(edit func(w *want)) want { w := base; edit(&w); return w }
	cases := []struct {
		name, url, user, pass string
		want                  want
	}{
		{"xxl-job default URL", def, "root", "root_pwd", base},
		{"mariadb scheme, no port", "jdbc:mariadb://db.example.com/xxl_job?serverTimezone=Asia/Shanghai", "root", "root_pwd",
			with(func(w *want) { w.addr = "db.example.com:3306" })},
		{"failover hosts: the first", "jdbc:mysql://h1:3307,h2:3308/xxl_job?serverTimezone=Asia/Shanghai", "root", "root_pwd",
			with(func(w *want) { w.addr = "h1:3307" })},
		{"IPv6 with port", "jdbc:mysql://[::1]:3307/xxl_job?serverTimezone=Asia/Shanghai", "root", "root_pwd",
			with(func(w *want) { w.addr = "[::1]:3307" })},
		{"IPv6 without port", "jdbc:mysql://[fe80::1]/xxl_job?serverTimezone=Asia/Shanghai", "root", "root_pwd",
			with(func(w *want) { w.addr = "[fe80::1]:3306" })},
		{"no host", "jdbc:mysql:///xxl_job?serverTimezone=Asia/Shanghai", "root", "root_pwd",
			with(func(w *want) { w.addr = "127.0.0.1:3306" })},
		{"GMT%2B8", "jdbc:mysql://h:3306/xxl_job?serverTimezone=GMT%2B8", "root", "root_pwd",
			with(func(w *want) { w.addr, w.zone = "h:3306", "GMT+8" })},
		{"GMT+8 unescaped ('+' decodes to space)", "jdbc:mysql://h:3306/xxl_job?serverTimezone=GMT+8", "root", "root_pwd",
			with(func(w *want) { w.addr, w.zone = "h:3306", "GMT+8" })},
		{"UTC-05:30", "jdbc:mysql://h:3306/xxl_job?serverTimezone=UTC-05:30", "root", "root_pwd",
			with(func(w *want) { w.addr, w.zone, w.offset = "h:3306", "UTC-05:30", -(5*3600 + 1800) })},
		{"GMT+0800", "jdbc:mysql://h:3306/xxl_job?serverTimezone=gmt%2B0800", "root", "root_pwd",
			with(func(w *want) { w.addr, w.zone = "h:3306", "GMT+0800" })},
		{"PRC", "jdbc:mysql://h:3306/xxl_job?serverTimezone=PRC", "root", "root_pwd",
			with(func(w *want) { w.addr = "h:3306" })},
		{"UTC", "jdbc:mysql://h:3306/xxl_job?serverTimezone=UTC", "root", "root_pwd",
			with(func(w *want) { w.addr, w.zone, w.offset = "h:3306", "UTC", 0 })},
		{"connectionTimeZone wins", "jdbc:mysql://h:3306/xxl_job?serverTimezone=UTC&connectionTimeZone=Asia/Shanghai", "root", "root_pwd",
			with(func(w *want) { w.addr = "h:3306" })},
		{"no zone: local", "jdbc:mysql://h:3306/xxl_job", "root", "root_pwd",
			with(func(w *want) { w.addr, w.zone = "h:3306", "Local" })},
		{"characterEncoding gbk", "jdbc:mysql://h:3306/xxl_job?characterEncoding=GBK&serverTimezone=PRC", "root", "root_pwd",
			with(func(w *want) { w.addr, w.charset = "h:3306", "gbk" })},
		{"characterEncoding utf8", "jdbc:mysql://h:3306/xxl_job?characterEncoding=utf8&serverTimezone=PRC", "root", "root_pwd",
			with(func(w *want) { w.addr = "h:3306" })},
		{"useSSL=false", def + "&useSSL=false", "root", "root_pwd", with(func(w *want) { w.tls = "false" })},
		{"useSSL=true", def + "&useSSL=true", "root", "root_pwd", with(func(w *want) { w.tls = "skip-verify" })},
		{"useSSL=true, verify", def + "&useSSL=true&verifyServerCertificate=true", "root", "root_pwd", with(func(w *want) { w.tls = "true" })},
		{"requireSSL", def + "&requireSSL=true", "root", "root_pwd", with(func(w *want) { w.tls = "skip-verify" })},
		{"sslMode=DISABLED", def + "&sslMode=DISABLED", "root", "root_pwd", with(func(w *want) { w.tls = "false" })},
		{"sslMode=REQUIRED", def + "&sslMode=required", "root", "root_pwd", with(func(w *want) { w.tls = "skip-verify" })},
		{"sslMode=VERIFY_IDENTITY", def + "&sslMode=VERIFY_IDENTITY", "root", "root_pwd", with(func(w *want) { w.tls = "true" })},
		{"sslMode wins over useSSL", def + "&useSSL=false&sslMode=REQUIRED", "root", "root_pwd", with(func(w *want) { w.tls = "skip-verify" })},
		{"timeouts", def + "&connectTimeout=3000&socketTimeout=60000", "root", "root_pwd",
			with(func(w *want) { w.timeout, w.readTimeout = 3*time.Second, time.Minute })},
		{"credentials in query", def + "&user=u1&password=p%40ss", "", "", with(func(w *want) { w.user, w.pass = "u1", "p@ss" })},
		{"spring credentials win", def + "&user=u1&password=p1", "root", "root_pwd", base},
		{"credentials in authority", "jdbc:mysql://u2:pw2@127.0.0.1:3306/xxl_job?serverTimezone=Asia/Shanghai", "", "",
			with(func(w *want) { w.user, w.pass = "u2", "pw2" })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target, err := ParseJDBC(c.url, c.user, c.pass)
			mustNoErr(t, err)
			if target.Backend != MySQL || target.Driver != "mysql" {
				t.Errorf("backend %s/%s", target.Backend, target.Driver)
			}
			cfg, err := mysql.ParseDSN(target.DSN)
			if err != nil {
				t.Fatalf("DSN %q does not parse: %v", target.DSN, err)
			}
			w := c.want
			if cfg.Addr != w.addr || cfg.DBName != w.db || cfg.User != w.user || cfg.Passwd != w.pass || cfg.Net != "tcp" {
				t.Errorf("addr/db/user = %s %s %s %s, want %s %s %s %s", cfg.Addr, cfg.DBName, cfg.User, cfg.Passwd, w.addr, w.db, w.user, w.pass)
			}
			if !cfg.ClientFoundRows {
				t.Errorf("clientFoundRows off: UPDATE counts would be changed rows (schema.md §3)")
			}
			if cfg.ParseTime {
				t.Errorf("parseTime on: the store parses DATETIME itself")
			}
			// go-sql-driver keeps charset out of Params once parsed.
			if !strings.Contains(target.DSN, "charset="+w.charset) {
				t.Errorf("DSN %q lacks charset=%s", target.DSN, w.charset)
			}
			if !strings.Contains(target.DSN, "clientFoundRows=true") {
				t.Errorf("DSN %q lacks clientFoundRows=true", target.DSN)
			}
			if cfg.TLSConfig != w.tls {
				t.Errorf("tls = %q, want %q", cfg.TLSConfig, w.tls)
			}
			if cfg.Timeout != w.timeout || cfg.ReadTimeout != w.readTimeout {
				t.Errorf("timeouts = %s/%s, want %s/%s", cfg.Timeout, cfg.ReadTimeout, w.timeout, w.readTimeout)
			}
			if target.Loc.String() != w.zone {
				t.Errorf("zone = %s, want %s", target.Loc, w.zone)
			}
			if w.zone != "Local" {
				_, off := time.Date(2024, 1, 1, 0, 0, 0, 0, target.Loc).Zone()
				if off != w.offset {
					t.Errorf("offset = %d, want %d", off, w.offset)
				}
			}
			// A named zone travels in the DSN too.
			if _, err := time.LoadLocation(w.zone); err == nil && w.zone != "Local" && cfg.Loc.String() != w.zone {
				t.Errorf("DSN loc = %s, want %s", cfg.Loc, w.zone)
			}
			if w.pass != "" && (strings.Contains(target.Display, w.pass) || !strings.Contains(target.Display, "****")) {
				t.Errorf("Display leaks the password: %s", target.Display)
			}
		})
	}
}

// TestParseJDBCSQLite checks the embedded backend's URLs: relative and
// absolute files (directory created), :memory:, and query parameters.
func TestParseJDBCSQLite(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	abs := filepath.Join(dir, "abs", "deep", "xxl.db")
	cases := []struct {
		name, url, path, zone string
		mkdir                 string
	}{
		{"relative", "jdbc:sqlite:data/xxl_job.db", "data/xxl_job.db", "Local", filepath.Join(dir, "data")},
		{"absolute", "jdbc:sqlite:" + abs, abs, "Local", filepath.Dir(abs)},
		{"file: prefix and query", "jdbc:sqlite:file:q/x.db?serverTimezone=PRC&journal_mode=WAL", "q/x.db", "Asia/Shanghai", filepath.Join(dir, "q")},
		{"odd characters", "jdbc:sqlite:odd dir/a#b%20c.db", "odd dir/a#b%20c.db", "Local", filepath.Join(dir, "odd dir")},
		{"memory", "jdbc:sqlite::memory:", ":memory:", "Local", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target, err := ParseJDBC(c.url, "ignored", "ignored")
			mustNoErr(t, err)
			if target.Backend != SQLite || target.Driver != "sqlite" || target.Path != c.path || target.Loc.String() != c.zone {
				t.Errorf("target = %+v", target)
			}
			for _, p := range []string{"busy_timeout", "_txlock=immediate"} {
				if !strings.Contains(target.DSN, p) {
					t.Errorf("DSN %q lacks %s", target.DSN, p)
				}
			}
			if c.mkdir != "" {
				if st, err := os.Stat(c.mkdir); err != nil || !st.IsDir() {
					t.Errorf("directory %s not created: %v", c.mkdir, err)
				}
			}
			// The target opens, and the database lands at the named path.
			s, err := Open(context.Background(), target, PoolSettings{MaxOpen: 2})
			mustNoErr(t, err)
			defer s.Close()
			_, err = s.Prepare(context.Background(), PrepareOptions{})
			mustNoErr(t, err)
			if c.path != ":memory:" {
				if _, err := os.Stat(c.path); err != nil {
					t.Errorf("database file: %v", err)
				}
			}
		})
	}
}

// TestParseJDBCErrors checks unsupported or broken URLs fail clearly.
func TestParseJDBCErrors(t *testing.T) {
	cases := []struct{ url, want string }{
		{"jdbc:oracle:thin:@h:1521:xe", "only jdbc:mysql://"},
		{"jdbc:postgresql://h:5432/", "no database name"},
		{"jdbc:postgresql://h:99999/xxl_job", "bad port"},
		{"jdbc:postgresql://h/xxl_job?sslmode=sometimes", "unknown sslmode"},
		{"jdbc:postgresql://h/xxl_job?options=-c%20TimeZone%3DMars/Olympus", "Mars/Olympus"},
		{"mysql://h:3306/xxl_job", "only jdbc:mysql://"},
		{"", "only jdbc:mysql://"},
		{"jdbc:mysql://h:3306/", "no database name"},
		{"jdbc:mysql://h:3306", "no database name"},
		{"jdbc:mysql://h:3306/xxl_job?serverTimezone=Mars/Olympus", `serverTimezone "Mars/Olympus"`},
		{"jdbc:mysql://h:3306/xxl_job?serverTimezone=GMT%2B99", "serverTimezone"},
		{"jdbc:mysql://h:3306/xxl_job?a=%zz", "jdbc:mysql://h:3306/xxl_job?a=%zz"},
		{"jdbc:sqlite:", "no database file"},
		{"jdbc:sqlite:x.db?serverTimezone=Nowhere", "serverTimezone"},
	}
	for _, c := range cases {
		_, err := ParseJDBC(c.url, "u", "p")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseJDBC(%q) = %v, want error containing %q", c.url, err, c.want)
		}
	}
}
