package schema

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Backend names a database family the store speaks.
type Backend string

// Supported backends.
const (
	MySQL    Backend = "mysql" // MySQL 5.7/8 and MariaDB 10.x
	SQLite   Backend = "sqlite"
	Postgres Backend = "postgres" // PostgreSQL 12+
)

// Target is a parsed spring.datasource.url, ready for database/sql.
type Target struct {
	Backend Backend
	Driver  string         // database/sql driver name
	DSN     string         // driver data source name (password included; never log it)
	Display string         // DSN safe to log
	Loc     *time.Location // zone of DATETIME values (serverTimezone, else local)
	Path    string         // SQLite file path
}

// ParseJDBC turns a JDBC URL into a driver target. Only the parameters that
// change behaviour are translated; for MySQL: serverTimezone/connectionTimeZone
// (the zone DATETIME values are written in, schema.md §3), characterEncoding,
// useSSL/sslMode/requireSSL, connectTimeout/socketTimeout and user/password;
// the dozens of Connector/J tuning options are ignored. PostgreSQL: see
// parsePostgres.
func ParseJDBC(raw, user, password string) (Target, error) {
	switch {
	case strings.HasPrefix(raw, "jdbc:mysql://"), strings.HasPrefix(raw, "jdbc:mariadb://"):
		return parseMySQL(raw, user, password)
	case strings.HasPrefix(raw, "jdbc:postgresql:"):
		return parsePostgres(raw, user, password)
	case strings.HasPrefix(raw, "jdbc:sqlite:"):
		return parseSQLite(raw)
	}
	return Target{}, fmt.Errorf("spring.datasource.url %q: only jdbc:mysql://, jdbc:mariadb://, jdbc:postgresql:// and jdbc:sqlite: are supported", raw)
}

func parseMySQL(raw, user, password string) (Target, error) {
	rest := raw[strings.Index(raw, "//")+2:]
	hostPart, pathPart, _ := strings.Cut(rest, "/")
	dbName, query, _ := strings.Cut(pathPart, "?")
	// Connector/J also takes credentials in the authority (user:pass@host).
	var urlUser, urlPass string
	if at := strings.LastIndex(hostPart, "@"); at >= 0 {
		urlUser, urlPass, _ = strings.Cut(hostPart[:at], ":")
		hostPart = hostPart[at+1:]
	}
	// Connector/J accepts a comma-separated failover host list; we connect to
	// the first host, which is what it does while that host is up.
	host := strings.Split(hostPart, ",")[0]
	if host == "" {
		host = "127.0.0.1"
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "3306")
	}
	if dbName == "" {
		return Target{}, fmt.Errorf("spring.datasource.url %q: no database name", raw)
	}
	params, err := url.ParseQuery(strings.ReplaceAll(query, ";", "&"))
	if err != nil {
		return Target{}, fmt.Errorf("spring.datasource.url %q: %w", raw, err)
	}
	get := func(k string) string {
		for pk, v := range params {
			if strings.EqualFold(pk, k) && len(v) > 0 {
				return v[len(v)-1]
			}
		}
		return ""
	}
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = host
	cfg.DBName = dbName
	// spring.datasource.username/password win over the URL's own.
	cfg.User = firstNonEmpty(user, get("user"), urlUser)
	cfg.Passwd = firstNonEmpty(password, get("password"), urlPass)
	loc := time.Local
	if tz := firstNonEmpty(get("connectionTimeZone"), get("serverTimezone")); tz != "" && !strings.EqualFold(tz, "LOCAL") && !strings.EqualFold(tz, "SERVER") {
		l, err := loadZone(tz)
		if err != nil {
			return Target{}, fmt.Errorf("spring.datasource.url serverTimezone %q: %w", tz, err)
		}
		loc = l
	}
	// The store formats and parses DATETIME text itself (ParseTime off), so
	// the driver's loc only matters for time.Time arguments, which the store
	// never passes. It is still recorded for readers of the DSN, but only
	// when the DSN parser can load it back: a fixed offset such as GMT+8 has
	// no loadable name and would make the whole DSN invalid.
	if _, err := time.LoadLocation(loc.String()); err == nil {
		cfg.Loc = loc
	}
	cfg.ParseTime = false        // DATETIME text is parsed by the store in Loc, the same on every backend
	cfg.ClientFoundRows = true   // matched-row counts, as Connector/J (schema.md §3)
	cfg.InterpolateParams = true // one round trip per statement instead of prepare+execute+close
	switch enc := strings.ToLower(get("characterEncoding")); enc {
	case "", "utf-8", "utf8", "utf8mb4":
		cfg.Params = map[string]string{"charset": "utf8mb4"}
	default:
		cfg.Params = map[string]string{"charset": mysqlCharset(enc)}
	}
	cfg.TLSConfig = tlsMode(get("sslMode"), get("useSSL"), get("requireSSL"), get("verifyServerCertificate"))
	if ms, err := strconv.Atoi(get("connectTimeout")); err == nil && ms > 0 {
		cfg.Timeout = time.Duration(ms) * time.Millisecond
	} else {
		cfg.Timeout = 10 * time.Second
	}
	if ms, err := strconv.Atoi(get("socketTimeout")); err == nil && ms > 0 {
		cfg.ReadTimeout = time.Duration(ms) * time.Millisecond
		cfg.WriteTimeout = cfg.ReadTimeout
	}
	dsn := cfg.FormatDSN()
	safe := *cfg
	if safe.Passwd != "" {
		safe.Passwd = "****"
	}
	return Target{Backend: MySQL, Driver: "mysql", DSN: dsn, Display: safe.FormatDSN(), Loc: loc}, nil
}

// tlsMode maps Connector/J's TLS settings to go-sql-driver's tls values.
// Connector/J 8 defaults to PREFERRED without certificate checks; the legacy
// useSSL=true means REQUIRED, or VERIFY_CA with verifyServerCertificate=true.
func tlsMode(sslMode, useSSL, requireSSL, verifyCert string) string {
	switch strings.ToUpper(sslMode) {
	case "DISABLED":
		return "false"
	case "REQUIRED":
		return "skip-verify"
	case "VERIFY_CA", "VERIFY_IDENTITY":
		return "true"
	case "PREFERRED":
		return "preferred"
	}
	switch {
	case strings.EqualFold(useSSL, "false"):
		return "false"
	case strings.EqualFold(useSSL, "true") || strings.EqualFold(requireSSL, "true"):
		if strings.EqualFold(verifyCert, "true") {
			return "true"
		}
		return "skip-verify"
	}
	return "preferred"
}

func mysqlCharset(javaEnc string) string {
	switch javaEnc {
	case "gbk":
		return "gbk"
	case "iso-8859-1", "latin1":
		return "latin1"
	}
	return "utf8mb4"
}

// loadZone accepts IANA names plus the offsets and aliases Java accepts in
// serverTimezone (GMT+8, UTC+08:00, PRC, CTT).
//
// Offsets are parsed before the zone database is asked: some systems ship
// POSIX-style "GMT+8" files whose sign is inverted (UTC-8). A space where
// the sign belongs is a '+' lost to URL decoding ("serverTimezone=GMT+8"
// unescaped), which is what the operator meant.
func loadZone(tz string) (*time.Location, error) {
	aliases := map[string]string{"PRC": "Asia/Shanghai", "CTT": "Asia/Shanghai", "GMT": "UTC", "Z": "UTC"}
	if a, ok := aliases[strings.ToUpper(tz)]; ok {
		tz = a
	}
	for _, prefix := range []string{"GMT", "UTC"} {
		if off, ok := strings.CutPrefix(strings.ToUpper(tz), prefix); ok && off != "" {
			sign, signChar := 1, "+"
			switch off[0] {
			case '-':
				sign, signChar = -1, "-"
			case '+', ' ':
			default:
				return nil, fmt.Errorf("unknown time zone")
			}
			tz = prefix + signChar + off[1:]
			h, m, _ := strings.Cut(off[1:], ":")
			if m == "" && len(h) == 4 { // Java also accepts GMT+hhmm
				h, m = h[:2], h[2:]
			}
			hh, err1 := strconv.Atoi(h)
			mm := 0
			var err2 error
			if m != "" {
				mm, err2 = strconv.Atoi(m)
			}
			if err1 != nil || err2 != nil || hh > 18 || mm > 59 {
				return nil, fmt.Errorf("unknown time zone")
			}
			return time.FixedZone(tz, sign*(hh*3600+mm*60)), nil
		}
	}
	if l, err := time.LoadLocation(tz); err == nil {
		return l, nil
	}
	return nil, fmt.Errorf("unknown time zone")
}

func parseSQLite(raw string) (Target, error) {
	rest := strings.TrimPrefix(raw, "jdbc:sqlite:")
	path, query, _ := strings.Cut(rest, "?")
	path = strings.TrimPrefix(path, "file:")
	if path == "" {
		return Target{}, fmt.Errorf("spring.datasource.url %q: no database file", raw)
	}
	loc := time.Local
	if q, err := url.ParseQuery(query); err == nil {
		if tz := q.Get("serverTimezone"); tz != "" {
			l, err := loadZone(tz)
			if err != nil {
				return Target{}, fmt.Errorf("spring.datasource.url serverTimezone %q: %w", tz, err)
			}
			loc = l
		}
	}
	if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return Target{}, fmt.Errorf("create directory for %s: %w", path, err)
		}
	}
	// WAL lets readers run beside the single writer; immediate transactions
	// take the write lock up front, which is our schedule lock on SQLite and
	// avoids the deadlock of two readers upgrading at once.
	// The path goes into an SQLite URI, where '%' escapes and '#' starts a
	// fragment; escape both so the file is the one the operator named.
	uriPath := strings.NewReplacer("%", "%25", "#", "%23").Replace(path)
	dsn := "file:" + uriPath + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	if path == ":memory:" {
		dsn = "file::memory:?_pragma=busy_timeout(10000)&_txlock=immediate"
	}
	return Target{Backend: SQLite, Driver: "sqlite", DSN: dsn, Display: dsn, Loc: loc, Path: path}, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
