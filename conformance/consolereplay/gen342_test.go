package consolereplay

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestTokenCookies checks the 3.4.2 cookie mapping: a setup login maps
// the recorded token to the one the admin sets now, a recorded login
// exchange maps through its Set-Cookie, and tokens never issued go out
// unchanged.
func TestTokenCookies(t *testing.T) {
	var logins []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.URL.Path != LoginPath342 || r.Header.Get("X-Requested-With") != "XMLHttpRequest" {
			http.Error(w, "unexpected "+r.URL.Path, http.StatusBadRequest)
			return
		}
		if r.Form.Get("password") != "123456" {
			_, _ = io.WriteString(w, `{"code":500,"msg":"Username or password error"}`)
			return
		}
		logins = append(logins, r.Form.Get("userName"))
		http.SetCookie(w, &http.Cookie{Name: TokenCookie342, Value: "now-" + r.Form.Get("userName"), Path: "/", HttpOnly: true})
	}))
	defer srv.Close()
	ctx := context.Background()
	c := &TokenCookies{BaseURL: srv.URL, Client: srv.Client()}
	if err := c.Login(ctx, SetupLogin{User: "admin", Password: "123456", Cookie: "rec-admin"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Login(ctx, SetupLogin{User: "normal1", Password: "wrong", Cookie: "rec-n1"}); err == nil {
		t.Error("a failed setup login must be an error")
	}
	c.Learn("", []string{TokenCookie342 + "=rec-second; Path=/; HttpOnly"}, []string{TokenCookie342 + "=now-second; Path=/; HttpOnly"})
	c.Learn("", []string{TokenCookie342 + "=; Expires=Thu, 01 Jan 1970 00:00:10 GMT; Path=/"}, []string{TokenCookie342 + "=; Max-Age=0"})
	tests := []struct{ recorded, want string }{
		{TokenCookie342 + "=rec-admin", TokenCookie342 + "=now-admin"},
		{TokenCookie342 + "=rec-second", TokenCookie342 + "=now-second"},
		{TokenCookie342 + "=forged", TokenCookie342 + "=forged"},
		{"other=rec-admin; " + TokenCookie342 + "=rec-admin", "other=rec-admin; " + TokenCookie342 + "=now-admin"},
		{"", ""},
	}
	for _, tt := range tests {
		got, err := c.Header(ctx, tt.recorded)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Header(%q) = %q, want %q", tt.recorded, got, tt.want)
		}
	}
	if !slices.Equal(logins, []string{"admin"}) {
		t.Errorf("logins %v", logins)
	}
}

// TestReadDDL splits the release's DDL: the tables, SET NAMES and the seed
// rows, without the database's own lines and the commit.
func TestReadDDL(t *testing.T) {
	path := RequireSchema342(t)
	stmts, err := readDDL(path)
	if err != nil {
		t.Fatal(err)
	}
	var tables, inserts int
	for _, s := range stmts {
		lower := strings.ToLower(s)
		switch {
		case strings.HasPrefix(lower, "create table"):
			tables++
		case strings.HasPrefix(lower, "insert into"):
			inserts++
		case strings.HasPrefix(lower, "create database"), strings.HasPrefix(lower, "use "), lower == "commit":
			t.Errorf("statement kept: %.60s", s)
		}
	}
	if tables != 8 || inserts != 4 {
		t.Errorf("%d tables and %d inserts, want 8 and 4", tables, inserts)
	}
	bad := filepath.Join(t.TempDir(), "bad.sql")
	if err := os.WriteFile(bad, []byte("CREATE TABLE x (id int)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readDDL(bad); err == nil {
		t.Error("a statement without ';' must be an error")
	}
}

// TestFixture342 loads the release's tables, the fixture and every hook of
// the 3.4.2 plan into MariaDB and checks what the recordings rely on.
func TestFixture342(t *testing.T) {
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the 3.4.2 fixture needs " + storetest.EnvMySQL)
	}
	RequireSchema342(t)
	url, user, pass := storetest.MySQLURLZone(t, Zone)
	ctx := context.Background()
	db, err := OpenDB342(ctx, url+"&useUnicode=true&characterEncoding=UTF-8", user, pass)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Now().Truncate(time.Second)
	if err := (Fixture342{At: at, Executor: "http://127.0.0.1:40001/"}).Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, step := range plan342 {
		hooks := step.Before
		for _, h := range step.BeforeExchange {
			hooks = append(hooks, h...)
		}
		if err := RunHooks(ctx, db, hooks); err != nil {
			t.Fatal(err)
		}
	}
	count := func(table string) int {
		rows, err := db.Rows(ctx, sq.Select("id").From(table))
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	if g, j, l := count("xxl_job_group"), count("xxl_job_info"), count("xxl_job_log"); g != 5 || j != 8 || l != 7+1+10 {
		t.Errorf("%d groups, %d jobs, %d logs; want 5 (seed 1, fixture 2–4, hook 50), 8 (seed 1, fixture 2–8), 18", g, j, l)
	}
	users, err := db.Rows(ctx, sq.Select("id", "username", "password", "token", "permission").From("xxl_job_user").OrderBy("id"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range users {
		names = append(names, deref(u["username"]))
		if deref(u["password"]) != sha256Hex("123456") || u["token"] != nil {
			t.Errorf("user %s: password %s token %v", deref(u["username"]), deref(u["password"]), u["token"])
		}
	}
	if want := []string{"admin", "normal1", "victim1", "gone1", "pwduser", "spaceuser", "nogroups"}; !slices.Equal(names, want) {
		t.Errorf("users %v, want %v", names, want)
	}
}

// TestFakeExecutor342 checks the 3.4.2 dialect of the fake executor.
func TestFakeExecutor342(t *testing.T) {
	f, err := StartFakeExecutorAt(Executor342, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	post := func(path, body string) map[string]any {
		resp, err := http.Post(f.Address()+strings.TrimPrefix(path, "/"), "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	tests := []struct {
		path, body, want string
	}{
		{"/run", `{"jobId":2}`, `{"code":200,"msg":"Success"}`},
		{"/kill", `{"jobId":2}`, `{"code":200,"data":"job thread already killed.","msg":"Success"}`},
		{"/log", `{"logId":1,"fromLineNum":1}`, `{"code":200,"data":{"fromLineNum":1,"isEnd":true,"logContent":"line1\nline2 <b>&'\"\n","toLineNum":2},"msg":"Success"}`},
		{"/log", `{"logId":5,"fromLineNum":1}`, `{"code":200,"data":{"end":true,"fromLineNum":1,"logContent":"line1\nline2\n","toLineNum":2},"msg":"Success"}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(post(tt.path, tt.body))
		if err != nil {
			t.Fatal(err)
		}
		// encoding/json escapes <, > and & in strings; compare decoded.
		var want map[string]any
		if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		if string(got) != string(wantJSON) {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.path, tt.body, got, wantJSON)
		}
	}
	if calls := f.TakeCalls(); len(calls) != 4 || calls[1].Path != "/kill" {
		t.Errorf("calls %v", calls)
	}
}
