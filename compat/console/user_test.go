package console

import (
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestUsers follows recordings user_add.en, user_update.en, user_remove.en
// and user_pageList.en.
func TestUsers(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		c := e.login("admin", "123456")
		for _, tc := range []struct {
			kv   []string
			want string
		}{
			{[]string{"username", "newuser1", "password", "pass1234", "role", "0", "permission", "2,3"}, "<nil>"},
			{[]string{"username", "", "password", "pass1234", "role", "0"}, "please input Username"},
			{[]string{"username", "abc", "password", "pass1234", "role", "0"}, "Length limit[4-20]"},
			{[]string{"username", "uuuuuuuuuuuuuuuuuuuuu", "password", "pass1234", "role", "0"}, "Length limit[4-20]"},
			{[]string{"username", "newuser2", "password", "", "role", "0"}, "please input Password"},
			{[]string{"username", "newuser2", "password", "abc", "role", "0"}, "Length limit[4-20]"},
			{[]string{"username", "newuser1", "password", "pass1234", "role", "0"}, "Username Repeat"},
			{[]string{"username", "NEWUSER1", "password", "pass1234", "role", "0"}, "Username Repeat"},
			{[]string{"username", "Bad<User>", "password", "pass1234", "role", "1"}, "<nil>"},
		} {
			if r := c.post("/user/add", tc.kv...); r.msg() != tc.want {
				t.Errorf("add %v: %s", tc.kv, r.body)
			}
		}
		u, err := s.UserLoadByName(t.Context(), "newuser1")
		if err != nil || u.Password != testfactory.MD5("pass1234") || *u.Permission != "2,3" {
			t.Fatalf("stored %+v %v", u, err)
		}
		r := c.post("/user/pageList", "username", "new", "role", "-1", "start", "0", "length", "10")
		want := `{"recordsFiltered":1,"data":[{"id":` + itoa(u.ID) + `,"username":"newuser1","password":null,"role":0,"permission":"2,3"}],"recordsTotal":1}`
		if r.body != want {
			t.Errorf("pageList: %s", r.body)
		}
		for _, tc := range []struct {
			kv   []string
			want string
		}{
			{[]string{"id", itoa(u.ID), "username", "newuser1", "password", "newpass1", "role", "0", "permission", "3,4"}, "<nil>"},
			{[]string{"id", itoa(u.ID), "username", "newuser1", "password", "abc", "role", "0"}, "Length limit[4-20]"},
			{[]string{"id", "1", "username", "admin", "password", "", "role", "1"}, "Operation of current login account is not allowed"},
			{[]string{"id", itoa(u.ID), "username", "renamed", "password", "", "role", "1", "permission", ""}, "<nil>"},
		} {
			if r := c.post("/user/update", tc.kv...); r.msg() != tc.want {
				t.Errorf("update %v: %s", tc.kv, r.body)
			}
		}
		u2, _ := s.UserLoadByName(t.Context(), "newuser1")
		if u2.Password != testfactory.MD5("newpass1") || u2.Role != 1 || *u2.Permission != "" {
			t.Errorf("after updates: %+v", u2)
		}
		if r := c.post("/user/remove", "id", "1"); r.msg() != "Operation of current login account is not allowed" {
			t.Errorf("remove self: %s", r.body)
		}
		if r := c.post("/user/remove", "id", itoa(u.ID)); r.msg() != "<nil>" {
			t.Errorf("remove: %s", r.body)
		}
		if r := c.post("/user/remove", "id", "9999"); r.json()["code"] != float64(200) {
			t.Errorf("remove unknown: %s", r.body)
		}
		for _, tc := range []struct{ old, pw, want string }{
			{"", "x", "please input old password"}, {"123456", "", "please input old password"},
			{"123456", "abc", "Length limit[4-20]"}, {"wrong", "654321", "old passwordillegal"},
		} {
			if r := c.post("/user/updatePwd", "oldPassword", tc.old, "password", tc.pw); r.msg() != tc.want {
				t.Errorf("updatePwd %q %q: %s", tc.old, tc.pw, r.body)
			}
		}
	})
}

// TestJobGroups follows recordings jobgroup_save*, jobgroup_remove and
// jobgroup_loadById: the checks in order, ReturnT.FAIL for unknown ids, and
// a title longer than the column refused up front (Java: a driver error).
func TestJobGroups(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		c := e.login("admin", "123456")
		for _, tc := range []struct {
			kv   []string
			want string
		}{
			{[]string{"appname", "", "title", "abcd", "addressType", "0", "addressList", ""}, "please input AppName"},
			{[]string{"appname", "abc", "title", "abcd", "addressType", "0"}, "AppName length is limited to 4~64"},
			{[]string{"appname", "ab<cd", "title", "abcd", "addressType", "0"}, "AppNameillegal"},
			{[]string{"appname", "abcd-x", "title", "", "addressType", "0"}, "please input Title"},
			{[]string{"appname", "abcd-x", "title", "<b>x</b>", "addressType", "0"}, "Titleillegal"},
			{[]string{"appname", "abcd-x", "title", "abcd", "addressType", "1", "addressList", ""}, "Manually registration type, the machine address must not be empty"},
			{[]string{"appname", "abcd-x", "title", "abcd", "addressType", "1", "addressList", "http://a<b>/"}, "machine addressillegal"},
			{[]string{"appname", "abcd-x", "title", "abcd", "addressType", "1", "addressList", "http://127.0.0.1:1/,,http://127.0.0.1:2/"}, "registry machine address is illegal"},
			{[]string{"appname", "abcd-long-title", "title", "tttttttttttttttttttttttttttttttttttttttt", "addressType", "0"}, "Title length is limited to 4~12"},
			{[]string{"appname", "rec-manual", "title", "手动组", "addressType", "1", "addressList", "http://127.0.0.1:19991/,http://127.0.0.1:19992/"}, "<nil>"},
		} {
			if r := c.post("/jobgroup/save", tc.kv...); r.msg() != tc.want {
				t.Errorf("save %v: %s", tc.kv, r.body)
			}
		}
		if r := c.post("/jobgroup/save", "appname", "abcd-x", "title", "abcd", "addressType", "x"); r.status != 400 {
			t.Errorf("non-numeric addressType: %d", r.status)
		}
		list, _, _ := s.GroupPageList(t.Context(), 0, 10, schema.GroupFilter{AppName: "rec-manual"})
		g := list[0]
		r := c.post("/jobgroup/loadById", "id", itoa(g.ID))
		want := `{"code":200,"msg":null,"content":{"id":` + itoa(g.ID) + `,"appname":"rec-manual","title":"手动组","addressType":1,` +
			`"addressList":"http://127.0.0.1:19991/,http://127.0.0.1:19992/","updateTime":"2026-11-22T23:02:28.000+00:00",` +
			`"registryList":["http://127.0.0.1:19991/","http://127.0.0.1:19992/"]}}`
		if r.body != want {
			t.Errorf("loadById:\n got %s\nwant %s", r.body, want)
		}
		if r := c.post("/jobgroup/loadById", "id", "999"); r.body != `{"code":500,"msg":null,"content":null}` {
			t.Errorf("loadById unknown: %s", r.body)
		}
		testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID})
		if r := c.post("/jobgroup/remove", "id", itoa(g.ID)); r.msg() != "Refuse to delete, the executor is being used" {
			t.Errorf("remove used: %s", r.body)
		}
		if r := c.post("/jobgroup/remove", "id", "999"); r.body != `{"code":500,"msg":null,"content":null}` {
			t.Errorf("remove unknown: %s", r.body)
		}
		// An automatic group's addresses are rebuilt from live registrations.
		testfactory.Registry(t, s, testfactory.RegistryOpts{App: "auto-app", Addr: "http://b:1/", At: e.now})
		testfactory.Registry(t, s, testfactory.RegistryOpts{App: "auto-app", Addr: "http://a:1/", At: e.now})
		if r := c.post("/jobgroup/update", "id", itoa(g.ID), "appname", "auto-app", "title", "auto", "addressType", "0", "addressList", "x"); r.msg() != "<nil>" {
			t.Fatalf("update: %s", r.body)
		}
		g2, _ := s.GroupLoad(t.Context(), g.ID)
		if g2.AddressList == nil || *g2.AddressList != "http://a:1/,http://b:1/" {
			t.Errorf("rebuilt address list %v", g2.AddressList)
		}
		if r := c.post("/jobgroup/update", "id", "999", "appname", "auto-app", "title", "auto", "addressType", "0"); r.body != `{"code":500,"msg":null,"content":null}` {
			t.Errorf("update unknown: %s", r.body)
		}
	})
}
