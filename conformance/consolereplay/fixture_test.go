package consolereplay

import (
	"context"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// fixtureTables are read back in full to compare the backends.
var fixtureTables = map[string][]string{
	"xxl_job_group": {"id", "app_name", "title", "address_type", "address_list", "update_time"},
	"xxl_job_user":  {"id", "username", "password", "role", "permission"},
	"xxl_job_info": {"id", "job_group", "job_desc", "add_time", "update_time", "author", "alarm_email", "schedule_type",
		"schedule_conf", "misfire_strategy", "executor_route_strategy", "executor_handler", "executor_param",
		"executor_block_strategy", "executor_timeout", "executor_fail_retry_count", "glue_type", "glue_source",
		"glue_remark", "glue_updatetime", "child_jobid", "trigger_status", "trigger_last_time", "trigger_next_time"},
	"xxl_job_log": {"id", "job_group", "job_id", "executor_address", "executor_handler", "executor_param",
		"executor_sharding_param", "executor_fail_retry_count", "trigger_time", "trigger_code", "trigger_msg",
		"handle_time", "handle_code", "handle_msg", "alarm_status"},
}

// loadedFixture loads the fixture and every hook into a fresh database and
// reads all rows back as text.
func loadedFixture(t *testing.T, url, user, pass string, at time.Time) map[string][]map[string]*string {
	ctx := context.Background()
	db, err := OpenDB(ctx, url, user, pass)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Now = func() time.Time { return at }
	if err := (Fixture{At: at, Executor: "http://127.0.0.1:40001/"}).Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, step := range planEnZhCN {
		hooks := step.Before
		for _, h := range step.BeforeExchange {
			hooks = append(hooks, h...)
		}
		if err := RunHooks(ctx, db, hooks); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string][]map[string]*string{}
	for table, cols := range fixtureTables {
		rows, err := db.Rows(ctx, sq.Select(cols...).From(table).OrderBy("id"))
		if err != nil {
			t.Fatal(err)
		}
		out[table] = rows
	}
	return out
}

// TestFixture checks the loaded rows against the recorded values.
func TestFixture(t *testing.T) {
	at := time.Now().Truncate(time.Second)
	lite := loadedFixture(t, storetest.SQLiteURL(t, "serverTimezone="+Zone), "", "", at)
	loc, err := time.LoadLocation(Zone)
	if err != nil {
		t.Fatal(err)
	}
	job2 := lite["xxl_job_info"][1]
	if deref(job2["id"]) != "2" || deref(job2["add_time"]) != at.Add(-24*time.Hour).In(loc).Format(dbTimeLayout) ||
		deref(job2["schedule_conf"]) != "0 0 3 * * ?" || deref(job2["glue_remark"]) != "GLUE代码初始化" {
		t.Errorf("job 2: %v", show(job2))
	}
	if n := len(lite["xxl_job_log"]); n != 7+1+10 {
		t.Errorf("%d log rows, want 7 fixture rows, log 20 and ids 100–109", n)
	}
	if p := lite["xxl_job_user"][len(lite["xxl_job_user"])-2]["permission"]; deref(p) != " 2" {
		t.Errorf("spaceuser permission %q", deref(p))
	}
}

// TestFixtureBackendsAgree loads the fixture and the hooks' rows into
// SQLite and MariaDB: the rows must read back as the same text, which the
// db_after comparison and the hooks rely on.
func TestFixtureBackendsAgree(t *testing.T) {
	url, user, pass := storetest.MySQLURLZone(t, Zone)
	at := time.Now().Truncate(time.Second)
	lite := loadedFixture(t, storetest.SQLiteURL(t, "serverTimezone="+Zone), "", "", at)
	maria := loadedFixture(t, url, user, pass, at)
	for table := range fixtureTables {
		if !reflect.DeepEqual(lite[table], maria[table]) {
			t.Errorf("%s differs:\nsqlite  %s\nmariadb %s", table, show(lite[table]), show(maria[table]))
		}
	}
}

// TestCookies checks the cookie mapping: Java mode keeps a recorded cookie
// while the hash matches and re-issues it when the password changed;
// invalid cookies go out unchanged; signed mode logs in as the user.
func TestCookies(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, storetest.SQLiteURL(t, "serverTimezone="+Zone), "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := (Fixture{At: time.Now(), Executor: "http://127.0.0.1:40001/"}).Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	cookieOf := func(id int, name, password string, role int, perm *string) string {
		v, err := javaCookieValue(identity{ID: id, Username: name, Password: md5Hex(password), Role: role, Permission: perm})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	two := "2"
	normal1 := cookieOf(2, "normal1", "123456", 0, &two)
	var logins int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		logins++
		if r.URL.Path != ContextPath+"/login" {
			http.Error(w, "unexpected "+r.URL.Path+" "+r.Form.Encode(), http.StatusBadRequest)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: LoginCookie, Value: "signed-" + r.Form.Get("userName") + "-" + r.Form.Get("password"), Path: "/"})
	}))
	defer srv.Close()
	java := &Cookies{Mode: CookieJava, DB: db}
	signed := &Cookies{Mode: CookieSigned, BaseURL: srv.URL, DB: db, Client: srv.Client()}
	wrongHash := cookieOf(1, "admin", "wrong", 1, nil)
	check := func(c *Cookies, recorded, want string) {
		t.Helper()
		got, err := c.Header(ctx, LoginCookie+"="+recorded)
		if err != nil {
			t.Fatal(err)
		}
		if got != LoginCookie+"="+want {
			t.Errorf("mode %s, recorded %q: sent %q, want %q", c.Mode, recorded, got, LoginCookie+"="+want)
		}
	}
	check(java, normal1, normal1)
	check(java, wrongHash, wrongHash)
	check(java, "zz-not-hex", "zz-not-hex")
	check(java, hex.EncodeToString([]byte(`{"username":"admin"}`)), hex.EncodeToString([]byte(`{"username":"admin"}`)))
	check(signed, normal1, "signed-normal1-123456")
	check(signed, normal1, "signed-normal1-123456") // cached: one login
	check(signed, wrongHash, wrongHash)
	if logins != 1 {
		t.Errorf("%d logins, want 1", logins)
	}
	// victim1 gets the password newpass1 (as in user_update): its recorded
	// cookie follows the row.
	three := "3"
	victim1 := cookieOf(3, "victim1", "123456", 0, &three)
	if err := db.exec(ctx, sq.Update("xxl_job_user").Set("password", md5Hex("newpass1")).Where("id = 3")); err != nil {
		t.Fatal(err)
	}
	check(java, victim1, cookieOf(3, "victim1", "newpass1", 0, &three))
	check(signed, victim1, "signed-victim1-newpass1")
}
