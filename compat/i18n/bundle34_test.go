package i18n

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// wantKeyCount34 is the size of every 3.4.2 bundle.
const wantKeyCount34 = 244

// removed34 are the 2.4.2 keys 3.4.2 no longer has: the DataTables labels
// (its console dropped DataTables' i18n), the *_unvalid and
// system_lengh_limit spellings (renamed, see delta34) and a few unused ones.
var removed34 = []string{
	"dataTable_sEmptyTable", "dataTable_sFirst", "dataTable_sInfo", "dataTable_sInfoEmpty",
	"dataTable_sInfoFiltered", "dataTable_sLast", "dataTable_sLengthMenu", "dataTable_sLoadingRecords",
	"dataTable_sNext", "dataTable_sPrevious", "dataTable_sProcessing", "dataTable_sSearch",
	"dataTable_sSortAscending", "dataTable_sSortDescending", "dataTable_sZeroRecords",
	"daterangepicker_ranges_recent_hour", "job_help", "job_help_document",
	"jobgroup_field_registryList_unvalid", "jobinfo_glue_gluetype_unvalid", "jobinfo_glue_jobid_unvalid",
	"joblog_clean_type_unvalid", "joblog_logid_unvalid", "login_param_unvalid",
	"system_add_fail", "system_add_suc", "system_api_error", "system_lengh_limit", "system_unvalid",
	"system_update_fail", "system_update_suc",
}

// delta34 are the keys 3.4.2 added (the first 24) and the four whose value
// changed, with their exact values (en, zh_CN, zh_TC), read from the 3.4.2
// release's message_*.properties; zh_TC's mixed simplified characters
// (system_selected_nothing "请選擇") are upstream's.
var delta34 = []struct{ key, en, zhCN, zhTC string }{
	{"admin_help", "User Guide", "使用教程", "使用教程"},
	{"admin_help_document", "Official Documentation", "官方文档", "官方文檔"},
	{"change_skin", "Change Theme", "切换主题", "切換主題"},
	{"jobgroup_field_registryList_invalid", "registry machine address is illegal", "机器地址格式非法", "機器地址格式非法"},
	{"jobinfo_glue_gluetype_invalid", "The job is not GLUE Type", "该任务非GLUE模式", "該任務非GLUE模式"},
	{"jobinfo_glue_jobid_invalid", "Job ID is illegal", "任务ID非法", "任務ID非法"},
	{"jobinfo_glue_source", "GLUE Source", "GLUE源码", "GLUE源碼"},
	{"joblog_clean_type_invalid", "Clean type is illegal", "清理类型参数异常", "清理類型參数異常"},
	{"joblog_logid_invalid", "Log ID is illegal", "日志ID非法", "日誌ID非法"},
	{"login_param_invalid", "Username or password error", "账号或密码错误", "帳號或密碼錯誤"},
	{"system_data", "Data", "数据", "數據"},
	{"system_error", "error", "错误", "錯誤"},
	{"system_invalid", "illegal", "非法", "非法"},
	{"system_length_limit", "Length limit", "长度限制", "長度限制"},
	{"system_num_range", "Numerical range limit", "数值范围限制", "數值範圍限制"},
	{"system_one", "One", "一条", "一條"},
	{"system_opt_add", "Add", "新增", "新增"},
	{"system_reset", "Reset", "重置", "重置"},
	{"system_selected_nothing", "No data selected", "未选择", "请選擇"},
	{"tab_close_all", "Close All Tabs", "全部关闭", "全部關閉"},
	{"tab_close_current", "Close Current Tabs", "关闭当前", "關閉當前"},
	{"tab_close_other", "Close Other Tabs", "关闭其他", "關閉其他"},
	{"tab_opt", "Tab Operation", "页签操作", "頁籤操作"},
	{"tab_refresh", "Refresh Tab", "刷新", "刷新"},
	{"admin_name_full", "Distributed Task Scheduling Platform｜XXL-JOB", "分布式任务调度平台｜XXL-JOB", "分布式任務調度平臺｜XXL-JOB"},
	{"admin_version", "3.4.2", "3.4.2", "3.4.2"},
	{"jobinfo_field_add", "Add Job", "新增任务", "新增任務"},
	{"joblog_field_handleMsg", "Handle Msg", "执行备注", "執行備註"},
}

// 3.4.2's bundles are 2.4.2's minus removed34, plus or changed by delta34:
// every other key keeps its 2.4.2 value byte for byte, in every language.
func TestBundle34IsBundle24PlusDelta(t *testing.T) {
	for _, lang := range langs {
		old, got := Load(lang).All(), LoadFor(3, lang).All()
		want := maps.Clone(old)
		for _, k := range removed34 {
			if _, ok := want[k]; !ok {
				t.Fatalf("removed34 names %s, which 2.4.2 lacks", k)
			}
			delete(want, k)
		}
		for _, d := range delta34 {
			want[d.key] = map[string]string{"en": d.en, "zh_CN": d.zhCN, "zh_TC": d.zhTC}[lang]
		}
		if len(got) != wantKeyCount34 {
			t.Errorf("%s 3.4.2 has %d keys, want %d", lang, len(got), wantKeyCount34)
		}
		for k, w := range want {
			if v, ok := got[k]; !ok || v != w {
				t.Errorf("%s 3.4.2 %s = %q (present %v), want %q", lang, k, v, ok, w)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s 3.4.2 has unexpected key %s", lang, k)
			}
		}
	}
}

func TestLoadForPicksTheGenerationsBundle(t *testing.T) {
	for _, tc := range []struct {
		major   int
		version string
		keys    int
	}{{2, Version2, wantKeyCount}, {3, Version3, wantKeyCount34}, {0, Version2, wantKeyCount}, {4, Version2, wantKeyCount}} {
		for _, lang := range langs {
			b := LoadFor(tc.major, lang)
			if b.Version() != tc.version || b.Lang() != lang || len(b.All()) != tc.keys {
				t.Errorf("LoadFor(%d, %s) = %s %s with %d keys, want %s %s with %d",
					tc.major, lang, b.Version(), b.Lang(), len(b.All()), tc.version, lang, tc.keys)
			}
			if v := b.Text("admin_version"); v != tc.version {
				t.Errorf("LoadFor(%d, %s) admin_version = %q", tc.major, lang, v)
			}
		}
	}
	if Load("en").Version() != Version2 {
		t.Error("Load is not the 2.4.2 bundle")
	}
	// The same fallback as Load (config.md §2.4).
	for _, lang := range []string{"", "EN", "zh_TW"} {
		if b := LoadFor(3, lang); b.Lang() != "zh_CN" || b.Text("system_invalid") != "非法" {
			t.Errorf("LoadFor(3, %q) = %s, want the zh_CN 3.4.2 bundle", lang, b.Lang())
		}
	}
	// A 2.4.2-only key is unknown to 3.4.2, so it shows as itself.
	if got := LoadFor(3, "en").Text("system_unvalid"); got != "system_unvalid" {
		t.Errorf("3.4.2 system_unvalid = %q, want the key", got)
	}
}

// The texts the scheduler writes into trigger_msg and handle_msg are the
// same in both releases; only their surroundings changed (core/trigger).
func TestBundle34KeepsSchedulerTexts(t *testing.T) {
	for _, lang := range langs {
		old, b := Load(lang), LoadFor(3, lang)
		for _, k := range []string{
			"jobconf_trigger_type", "jobconf_trigger_admin_adress", "jobconf_trigger_exe_regtype",
			"jobconf_trigger_exe_regaddress", "jobconf_trigger_run", "jobconf_trigger_address_empty",
			"jobconf_trigger_child_run", "jobconf_callback_child_msg1", "jobconf_callback_child_msg2",
			"joblog_lost_fail", "joblog_field_executorAddress", "joblog_field_triggerMsg",
			"jobinfo_field_executorparam", "jobconf_trigger_type_retry", "jobconf_monitor",
		} {
			if old.Text(k) != b.Text(k) || b.Text(k) == k {
				t.Errorf("%s %s: 2.4.2 %q, 3.4.2 %q", lang, k, old.Text(k), b.Text(k))
			}
		}
	}
}

// The 3.4.2 files are kept in the same canonical form as the 2.4.2 ones.
func TestBundle34FilesAreCanonical(t *testing.T) {
	for _, lang := range langs {
		data, err := bundleFiles.ReadFile("bundles/3.4.2/message_" + lang + ".properties")
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if !strings.HasPrefix(text, "# xxl-job 3.4.2") || !strings.HasSuffix(text, "\n") {
			t.Errorf("%s: missing source header or final newline", lang)
		}
		if strings.Contains(text, "\r") || strings.Contains(text, `\`) {
			t.Errorf("%s: contains CR or backslash escapes", lang)
		}
		var keys []string
		for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
			if strings.HasPrefix(line, "#") {
				if keys != nil {
					t.Errorf("%s: comment after the first key: %q", lang, line)
				}
				continue
			}
			key, value, ok := strings.Cut(line, "=")
			if !ok || key == "" || strings.ContainsAny(key, " \t:") || strings.HasPrefix(value, " ") {
				t.Errorf("%s: non-canonical line %q", lang, line)
			}
			keys = append(keys, key)
		}
		if !slices.IsSorted(keys) || len(keys) != wantKeyCount34 {
			t.Errorf("%s: %d key lines (sorted %v), want %d sorted", lang, len(keys), slices.IsSorted(keys), wantKeyCount34)
		}
	}
}
