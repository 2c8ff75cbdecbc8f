package schema

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// parsePostgres translates a PgJDBC URL, jdbc:postgresql://host[:port][,host2[:port]]/db?params
// (or jdbc:postgresql:db for the local server), into a pgx keyword/value
// DSN. The parameters that change behaviour are translated: user/password,
// currentSchema (search_path), sslmode/ssl/sslrootcert/sslcert/sslkey,
// connectTimeout (seconds, as PgJDBC), ApplicationName, targetServerType and
// options (passed on; a "-c TimeZone=…" in it is also the zone of the
// timestamp columns). serverTimezone, the MySQL URLs' key, is accepted too.
// The zone defaults to the local one, as on MySQL without serverTimezone.
func parsePostgres(raw, user, password string) (Target, error) {
	rest := strings.TrimPrefix(raw, "jdbc:postgresql:")
	var hostPart, pathPart string
	if r, ok := strings.CutPrefix(rest, "//"); ok {
		hostPart, pathPart, _ = strings.Cut(r, "/")
	} else {
		pathPart = strings.TrimPrefix(rest, "/")
	}
	dbName, query, _ := strings.Cut(pathPart, "?")
	if dbName == "" {
		return Target{}, fmt.Errorf("spring.datasource.url %q: no database name", raw)
	}
	if d, err := url.PathUnescape(dbName); err == nil {
		dbName = d
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
	var hosts, ports []string
	if hostPart == "" {
		hostPart = "localhost"
	}
	for _, hp := range strings.Split(hostPart, ",") {
		host, port, err := net.SplitHostPort(hp)
		if err != nil {
			host, port = strings.Trim(hp, "[]"), "5432"
		}
		if host == "" {
			host = "localhost"
		}
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return Target{}, fmt.Errorf("spring.datasource.url %q: bad port %q", raw, port)
		}
		hosts, ports = append(hosts, host), append(ports, port)
	}

	loc := time.Local
	options := get("options")
	tz := firstNonEmpty(get("serverTimezone"), optionTimeZone(options))
	if tz != "" {
		l, err := loadZone(tz)
		if err != nil {
			return Target{}, fmt.Errorf("spring.datasource.url time zone %q: %w", tz, err)
		}
		loc = l
	}
	sslMode := strings.ToLower(get("sslmode"))
	if sslMode == "" {
		sslMode = "prefer" // PgJDBC's default
		if strings.EqualFold(get("ssl"), "true") {
			sslMode = "verify-full" // PgJDBC: ssl=true without sslmode
		}
	}
	switch sslMode {
	case "disable", "allow", "prefer", "require", "verify-ca", "verify-full":
	default:
		return Target{}, fmt.Errorf("spring.datasource.url %q: unknown sslmode %q", raw, sslMode)
	}
	timeout := 10 // seconds: PgJDBC's default connectTimeout
	if s, err := strconv.Atoi(get("connectTimeout")); err == nil && s > 0 {
		timeout = s
	}
	kv := [][2]string{
		{"host", strings.Join(hosts, ",")},
		{"port", strings.Join(ports, ",")},
		{"dbname", dbName},
		{"user", firstNonEmpty(user, get("user"))},
		{"password", firstNonEmpty(password, get("password"))},
		{"sslmode", sslMode},
		{"sslrootcert", get("sslrootcert")},
		{"sslcert", get("sslcert")},
		{"sslkey", get("sslkey")},
		{"connect_timeout", strconv.Itoa(timeout)},
		{"application_name", firstNonEmpty(get("ApplicationName"), "xxl-admin-go")},
		{"search_path", get("currentSchema")},
		{"target_session_attrs", targetSessionAttrs(get("targetServerType"))},
		{"options", options},
	}
	dsn, display := keywordDSN(kv, false), keywordDSN(kv, true)
	return Target{Backend: Postgres, Driver: "pgx", DSN: dsn, Display: display, Loc: loc}, nil
}

// optionTimeZone finds "-c TimeZone=zone" (or --TimeZone=zone) in a libpq
// options string.
func optionTimeZone(options string) string {
	fields := strings.Fields(options)
	for i, f := range fields {
		v := f
		switch {
		case f == "-c" && i+1 < len(fields):
			v = fields[i+1]
		case strings.HasPrefix(f, "-c"):
			v = f[2:]
		case strings.HasPrefix(f, "--"):
			v = f[2:]
		default:
			continue
		}
		if k, val, ok := strings.Cut(v, "="); ok && strings.EqualFold(k, "TimeZone") {
			return val
		}
	}
	return ""
}

// targetSessionAttrs maps PgJDBC's targetServerType to libpq's
// target_session_attrs.
func targetSessionAttrs(t string) string {
	switch strings.ToLower(t) {
	case "primary", "master":
		return "primary"
	case "secondary", "standby", "slave":
		return "standby"
	case "prefersecondary", "preferstandby", "preferslave":
		return "prefer-standby"
	}
	return ""
}

// keywordDSN formats libpq keyword/value pairs, quoting each value; empty
// values are left out, and with masked the password is starred.
func keywordDSN(kv [][2]string, masked bool) string {
	quote := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	var b strings.Builder
	for _, p := range kv {
		k, v := p[0], p[1]
		if v == "" {
			continue
		}
		if masked && k == "password" {
			v = "****"
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "='" + quote.Replace(v) + "'")
	}
	return b.String()
}
