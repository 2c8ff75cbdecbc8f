package main

import (
	"testing"
	"time"
)

// TestEncode checks jQuery's $.param encoding: encodeURIComponent (which
// keeps -_.!~*'() and escapes UTF-8 bytes), spaces as '+'.
func TestEncode(t *testing.T) {
	tests := []struct {
		f    form
		want string
	}{
		{kv("scheduleConf", "0 0 1 * * ?"), "scheduleConf=0+0+1+*+*+%3F"},
		{kv("title", "执行器"), "title=%E6%89%A7%E8%A1%8C%E5%99%A8"},
		{kv("a", "(x)!~'.-_", "b", "&=+/"), "a=(x)!~'.-_&b=%26%3D%2B%2F"},
		{ids("2", "7"), "ids%5B%5D=2&ids%5B%5D=7"},
		{kv("glueSource", "#!/bin/bash\r\n"), "glueSource=%23!%2Fbin%2Fbash%0D%0A"},
		{form{}, ""},
	}
	for _, tt := range tests {
		if got := tt.f.encode(); got != tt.want {
			t.Errorf("encode(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestFormWith(t *testing.T) {
	f := kv("a", "1", "b", "2")
	got := f.with("a", "x", "b", remove, "c", "3").encode()
	if got != "a=x&c=3" {
		t.Errorf("with: %q", got)
	}
	if f.encode() != "a=1&b=2" {
		t.Errorf("with changed its receiver: %q", f.encode())
	}
}

// TestJobForms checks the job dialog's field order, as serialize() sends it.
func TestJobForms(t *testing.T) {
	j := recJob()
	j.schedType, j.conf = "FIX_RATE", "30"
	want := "jobGroup=2&jobDesc=rec+job&author=rec&alarmEmail=&scheduleType=FIX_RATE&scheduleConf=30&cronGen_display=" +
		"&schedule_conf_CRON=&schedule_conf_FIX_RATE=30&schedule_conf_FIX_DELAY=&glueType=BEAN&executorHandler=demoJobHandler" +
		"&executorParam=&executorRouteStrategy=FIRST&childJobId=&misfireStrategy=DO_NOTHING&executorBlockStrategy=SERIAL_EXECUTION" +
		"&executorTimeout=0&executorFailRetryCount=0&glueRemark=GLUE%E4%BB%A3%E7%A0%81%E5%88%9D%E5%A7%8B%E5%8C%96&glueSource="
	if got := j.addForm().encode(); got != want {
		t.Errorf("add form:\n got %s\nwant %s", got, want)
	}
	upd := j.updateForm("7")
	if upd[len(upd)-1] != [2]string{"id", "7"} {
		t.Errorf("update form ends with %v", upd[len(upd)-1])
	}
	for _, kv := range upd {
		if kv[0] == "glueType" || kv[0] == "glueSource" {
			t.Errorf("update form has %s (the dialog's GLUE fields are disabled or absent)", kv[0])
		}
	}
}

// TestScenariosPlanned checks that the recorder defines exactly the
// planned scenarios, each with findings, and that every call names a
// session its scenario opens or keeps.
func TestScenariosPlanned(t *testing.T) {
	scs, err := scenarioMap(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := checkScenarios(scs); err != nil {
		t.Fatal(err)
	}
	for name, sc := range scs {
		sessions := map[string]bool{}
		for _, l := range sc.logins {
			sessions[l.user] = true
		}
		for i, c := range sc.calls {
			if c.as != "" && !sessions[c.as] {
				t.Errorf("%s[%d]: session %q is neither a setup login nor kept before", name, i, c.as)
			}
			if c.keep != "" {
				sessions[c.keep] = true
			}
		}
	}
}
