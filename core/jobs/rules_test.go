package jobs

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// mapTexts is a bundle of the given keys; others answer the key itself,
// as i18n.Bundle does.
type mapTexts map[string]string

func (m mapTexts) Text(key string) string {
	if v, ok := m[key]; ok {
		return v
	}
	return key
}

// TestKeyedTexts: the service's 2.4.2 key names read 3.4.2's renamed keys
// from a 3.4.2 bundle, and their own from a 2.4.2 one.
func TestKeyedTexts(t *testing.T) {
	v3 := keyedTexts{mapTexts{"system_invalid": "非法", "system_length_limit": "长度限制",
		"jobinfo_glue_jobid_invalid": "任务ID非法", "system_permission_limit": "权限拦截"}}
	v2 := keyedTexts{mapTexts{"system_unvalid": "illegal", "system_invalid": "wrong"}}
	for _, c := range []struct {
		texts     Texts
		key, want string
	}{
		{v3, "system_unvalid", "非法"},
		{v3, "system_lengh_limit", "长度限制"},
		{v3, "jobinfo_glue_jobid_unvalid", "任务ID非法"},
		{v3, "system_permission_limit", "权限拦截"},
		{v3, "joblog_logid_unvalid", "joblog_logid_unvalid"}, // in neither: the key, as the bundle answers
		{v2, "system_unvalid", "illegal"},                    // the bundle's own key wins
		{v2, "nothing", "nothing"},
	} {
		if got := c.texts.Text(c.key); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}

func newService342(s *schema.Store, now time.Time) *Service {
	return New(Config{Store: s, Texts: i18n.LoadFor(3, "en"), Loc: time.UTC, Now: func() time.Time { return now },
		Rules: Rules342, Log: zerolog.Nop()})
}

// TestRules342Children: 3.4.2 reads child ids as Unicode digits only (a
// sign or a blank is illegal, Arabic-Indic digits name a job) and refuses
// a job naming itself on update with the id as read (answers of the
// 3.4.2 jar: "子任务ID(+1)非法", "子任务ID(5)非法" for "1,05" on job 5).
func TestRules342Children(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService342(s, t0)
		job := testfactory.Job(t, s, testfactory.JobOpts{Group: 1})
		id := strconv.Itoa(job.ID)
		for _, c := range []struct{ child, want string }{
			{"+" + id, "Child Job ID(+" + id + ")illegal"},
			{" " + id, "Child Job ID( " + id + ")illegal"},
			{"-1", "Child Job ID(-1)illegal"},
			{"99999999999", "Child Job ID(99999999999)illegal"},
			{"9999", "Child Job ID(9999)not exist"},
		} {
			j := formJob(1)
			j.ChildJobID = schema.Ptr(c.child)
			_, err := svc.Add(ctx, j, nil)
			if got := refusal(t, err); got != c.want {
				t.Errorf("child %q: %q, want %q", c.child, got, c.want)
			}
		}
		if job.ID > 9 {
			t.Fatalf("job id %d: the Arabic-Indic case needs a one-digit id", job.ID)
		}
		j := formJob(1)
		j.ChildJobID = schema.Ptr(string(rune('٠' + job.ID)))
		if _, err := svc.Add(ctx, j, nil); err != nil {
			t.Errorf("Arabic-Indic child id: %v", err)
		}

		j = formJob(1)
		j.ID, j.ChildJobID = job.ID, schema.Ptr("0"+id)
		if got := refusal(t, svc.Update(ctx, j, nil)); got != "Child Job ID("+id+")illegal" {
			t.Errorf("self child: %q", got)
		}
	})
}

// TestRules342Handler: the JobHandler is stored trimmed on add and update.
func TestRules342Handler(t *testing.T) {
	s := storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", "")
	ctx := context.Background()
	svc := newService342(s, t0)
	j := formJob(1)
	j.ExecutorHandler = schema.Ptr(" demo\t")
	id, err := svc.Add(ctx, j, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.JobLoad(ctx, id); *got.ExecutorHandler != "demo" {
		t.Errorf("added handler %q", *got.ExecutorHandler)
	}
	j.ID, j.ExecutorHandler = id, schema.Ptr(" other ")
	if err := svc.Update(ctx, j, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.JobLoad(ctx, id); *got.ExecutorHandler != "other" {
		t.Errorf("updated handler %q", *got.ExecutorHandler)
	}
}

// TestRules342Groups: XssUtil's patterns on save and update instead of
// "<" and ">", http(s) addresses ("…[2]"), and the 64-wide title of the
// 3.4.2 schema (answers of the 3.4.2 jar: "a<b>c" saved, "javascript:x"
// refused, "ftp://a" → "机器地址格式非法[2]").
func TestRules342Groups(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService342(s, t0)
		manual := func(list string) schema.Group {
			return schema.Group{AppName: "probe-app", Title: "Probe", AddressType: 1, AddressList: &list}
		}
		for _, c := range []struct {
			name string
			g    schema.Group
			want string
		}{
			{"script scheme", schema.Group{AppName: "javascript:x", Title: "t"}, "AppNameillegal"},
			{"event handler", schema.Group{AppName: "probe-app", Title: "x onLoad =1"}, "Titleillegal"},
			{"not http", manual("ftp://a"), "registry machine address is illegal[2]"},
			{"blank before not http", manual("http://a,,ftp://b"), "registry machine address is illegal"},
			{"untrimmed", manual(" http://a"), "registry machine address is illegal[2]"},
			{"title too wide", schema.Group{AppName: "probe-app", Title: strings.Repeat("t", 65)}, "TitleLength limit[0-64]"},
		} {
			_, err := svc.AddGroup(ctx, c.g)
			if got := refusal(t, err); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		}
		id, err := svc.AddGroup(ctx, schema.Group{AppName: "a<b>c", Title: strings.Repeat("t", 64)})
		if err != nil {
			t.Fatalf("markup without a pattern, 64-wide title: %v", err)
		}
		if _, err := svc.AddGroup(ctx, manual("HTTP://a,https://b")); err != nil {
			t.Errorf("upper-case scheme: %v", err)
		}
		err = svc.UpdateGroup(ctx, schema.Group{ID: id, AppName: "probe-app", Title: "<iframe src=x>"})
		if got := refusal(t, err); got != "Titleillegal" {
			t.Errorf("update with a pattern: %q", got)
		}
	})
}

// TestRules342RemoveGroup: an unknown group is already removed, and the
// registrations of a removed group's AppName go with it.
func TestRules342RemoveGroup(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		svc := newService342(s, t0)
		if err := svc.RemoveGroup(ctx, 999); err != nil {
			t.Errorf("unknown group: %v", err)
		}
		g := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "gone-app"})
		testfactory.Registry(t, s, testfactory.RegistryOpts{App: "gone-app", Addr: "http://a:9999/"})
		testfactory.Registry(t, s, testfactory.RegistryOpts{App: "kept-app", Addr: "http://b:9999/"})
		if err := svc.RemoveGroup(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		left, err := s.RegistryFindAll(ctx, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(left) != 1 || left[0].RegistryKey != "kept-app" {
			t.Errorf("registrations left: %+v", left)
		}
	})
}

// TestRules342Glue: a blank source is refused before the remark, a remark
// with an XSS pattern after its length (answers of the 3.4.2 jar: "请输入GLUE
// 源码", "源码备注非法").
func TestRules342Glue(t *testing.T) {
	s := storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", "")
	svc := newService342(s, t0)
	ctx := context.Background()
	if got := refusal(t, svc.SaveGlue(ctx, 1, schema.Ptr(" "), nil, nil)); got != "please input GLUE Source" {
		t.Errorf("blank source: %q", got)
	}
	if got := refusal(t, svc.SaveGlue(ctx, 1, schema.Ptr("echo"), schema.Ptr("abc"), nil)); !strings.Contains(got, "4~100") {
		t.Errorf("short remark: %q", got)
	}
	if got := refusal(t, svc.SaveGlue(ctx, 1, schema.Ptr("echo"), schema.Ptr("eval(1)x"), nil)); got != "Resource Remarkillegal" {
		t.Errorf("remark with a pattern: %q", got)
	}
}
