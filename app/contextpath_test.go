package app_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestContextPathFollowsGeneration: the admin reads the database before it
// binds its routes, so the context path's default is the generation's —
// /xxl-job-admin on a 2.x database (the 2.4.2 jar's), / on a 3.x one (the
// 3.4.2 jar's; 3.4.1+ executors are configured without a path) — and a
// given server.servlet.context-path wins on both. /actuator/info names
// the generation there.
func TestContextPathFollowsGeneration(t *testing.T) {
	for _, tc := range []struct {
		name, schema, given, path, generation string
	}{
		{"2.x default", "2.4", "", "/xxl-job-admin", "2.4"},
		{"3.x default", "3.4", "", "", "3.4"},
		{"3.x given", "3.4", "/xxl-job-admin", "/xxl-job-admin", "3.4"},
		{"2.x given root", "2.4", "/", "", "2.4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--spring.datasource.url=" + storetest.SQLiteURL(t, ""), "--xxl.job.schema=" + tc.schema}
			if tc.given != "" {
				args = append(args, "--server.servlet.context-path="+tc.given)
			}
			base := admintest.Start(t, args...)
			resp, body := get(t, base+tc.path+"/actuator/info")
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"generation":"`+tc.generation+`"`) {
				t.Errorf("GET %s/actuator/info: %d %s", tc.path, resp.StatusCode, body)
			}
			// The executor API is under the same path.
			req, _ := http.NewRequest(http.MethodPost, base+tc.path+"/api/registry",
				strings.NewReader(`{"registryGroup":"EXECUTOR","registryKey":"app","registryValue":"http://127.0.0.1:9/"}`))
			req.Header.Set("XXL-JOB-ACCESS-TOKEN", "default_token")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			want := map[string]string{"2.4": `{"code":200,"msg":null,"content":null}`,
				"3.4": `{"code":200,"data":null,"msg":"Success","success":true}`}[tc.generation]
			if string(b) != want {
				t.Errorf("POST %s/api/registry: %s, want %s", tc.path, b, want)
			}
		})
	}
}

// TestLoginOfTheOtherGeneration: a login request of the other generation
// gets this generation's answer for an unknown path, as its Java admin
// would — the 2.4.2 console sends an anonymous caller of /auth/doLogin to
// its login page; the 3.4.2 console answers /login with its 404 page.
func TestLoginOfTheOtherGeneration(t *testing.T) {
	form := url.Values{"userName": {"admin"}, "password": {"123456"}}.Encode()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(u string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	base2 := admintest.Start(t, "--spring.datasource.url="+storetest.SQLiteURL(t, ""))
	if resp, _ := post(base2 + "/xxl-job-admin/auth/doLogin"); resp.StatusCode != http.StatusFound ||
		resp.Header.Get("Location") != "/xxl-job-admin/toLogin" || len(resp.Cookies()) != 0 {
		t.Errorf("3.x login on a 2.x database: %d %q %v", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies())
	}
	base3 := admintest.Start(t, "--spring.datasource.url="+storetest.SQLiteURL(t, ""), "--xxl.job.schema=3.4")
	if resp, body := post(base3 + "/login"); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "HTTP Status Code: 404") ||
		len(resp.Cookies()) != 0 {
		t.Errorf("2.x login on a 3.x database: %d %s", resp.StatusCode, body)
	}
}
