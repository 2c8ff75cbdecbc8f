package i18n

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
)

// wantKeyCount is the size of every 2.4.2 bundle (scheduler.md §12, console.md §8/§11).
const wantKeyCount = 251

var langs = []string{"en", "zh_CN", "zh_TC"}

// scheduler.md §12 and console.md §10/§11: exact en and zh_CN values, typos included.
func TestSpecTexts(t *testing.T) {
	en, zh := Load("en"), Load("zh_CN")
	for _, tc := range specTexts {
		if got := en.Text(tc.key); got != tc.en {
			t.Errorf("%s %s en = %q, want %q", tc.section, tc.key, got, tc.en)
		}
		if got := zh.Text(tc.key); got != tc.zhCN {
			t.Errorf("%s %s zh_CN = %q, want %q", tc.section, tc.key, got, tc.zhCN)
		}
	}
}

// console.md §11 lists all 251 keys with their English labels (trailing spaces kept).
func TestEnglishBundleMatchesConsoleSpec(t *testing.T) {
	got := Load("en").All()
	if !maps.Equal(got, specEnglish) {
		for k, want := range specEnglish {
			if v, ok := got[k]; !ok || v != want {
				t.Errorf("console.md §11 %s = %q (present %v), want %q", k, v, ok, want)
			}
		}
		for k := range got {
			if _, ok := specEnglish[k]; !ok {
				t.Errorf("key %s not in console.md §11", k)
			}
		}
	}
}

// scheduler.md §12: 251 keys each, identical key sets.
func TestBundlesShareKeySet(t *testing.T) {
	want := slices.Sorted(maps.Keys(Load("en").All()))
	for _, lang := range langs {
		b := Load(lang)
		if b.Lang() != lang {
			t.Errorf("Load(%q).Lang() = %q", lang, b.Lang())
		}
		keys := slices.Sorted(maps.Keys(b.All()))
		if len(keys) != wantKeyCount {
			t.Errorf("%s has %d keys, want %d", lang, len(keys), wantKeyCount)
		}
		if !slices.Equal(keys, want) {
			t.Errorf("%s key set differs from en", lang)
		}
	}
}

// console.md §11: admin_version and admin_i18n per bundle.
func TestBundleIdentity(t *testing.T) {
	for _, tc := range []struct{ lang, i18n string }{{"en", "en"}, {"zh_CN", ""}, {"zh_TC", ""}} {
		b := Load(tc.lang)
		if v := b.Text("admin_version"); v != "2.4.2" {
			t.Errorf("%s admin_version = %q", tc.lang, v)
		}
		if v := b.Text("admin_i18n"); v != tc.i18n {
			t.Errorf("%s admin_i18n = %q, want %q", tc.lang, v, tc.i18n)
		}
	}
	// A few zh_TC values, whose upstream text mixes in simplified characters.
	tc := Load("zh_TC")
	for key, want := range map[string]string{
		"system_please_choose":          "请選擇",
		"jobconf_callback_child_msg2":   "{0}/{1} [任務ID={2}], 觸發失败, 觸發備註: 任務ID格式錯誤 <br>",
		"jobconf_trigger_address_empty": "調度失敗：執行器地址為空",
		"user_manage":                   "用户管理",
	} {
		if got := tc.Text(key); got != want {
			t.Errorf("zh_TC %s = %q, want %q", key, got, want)
		}
	}
}

// config.md §2.4: any value but en, zh_CN, zh_TC (case-sensitive) selects zh_CN.
func TestLoadFallsBackToZhCN(t *testing.T) {
	for _, lang := range []string{"", "fr", "EN", "zh_cn", "zh-CN", "zh_TW", " en"} {
		b := Load(lang)
		if b.Lang() != "zh_CN" {
			t.Errorf("Load(%q).Lang() = %q, want zh_CN", lang, b.Lang())
		}
		if got := b.Text("system_success"); got != "成功" {
			t.Errorf("Load(%q) system_success = %q, want 成功", lang, got)
		}
	}
}

func TestTextUnknownKeyIsKey(t *testing.T) {
	b := Load("en")
	for _, key := range []string{"no_such_key", "", "jobconf_trigger_admin_address"} {
		if got := b.Text(key); got != key {
			t.Errorf("Text(%q) = %q, want the key", key, got)
		}
	}
	if got := b.Format("no_such_{0}", "x"); got != "no_such_x" {
		t.Errorf("Format(unknown) = %q", got)
	}
}

func TestAllIsACopy(t *testing.T) {
	b := Load("en")
	all := b.All()
	all["system_success"] = "changed"
	delete(all, "system_fail")
	if b.Text("system_success") != "success" || b.Text("system_fail") != "fail" {
		t.Fatal("mutating All() changed the bundle")
	}
}

func TestConcurrentUse(t *testing.T) {
	b := Load("zh_CN")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if b.Text("system_fail") != "失败" {
					t.Error("wrong text under concurrency")
					return
				}
				_ = b.Format("jobconf_callback_child_msg1", 1, 2, "3", "成功", nil)
				_ = b.All()
			}
		})
	}
	wg.Wait()
}

// The embedded files are kept canonical: header comment, then one key=value
// per line, sorted, with no escapes or continuations, so a diff against the
// upstream values is a plain text diff.
func TestBundleFilesAreCanonical(t *testing.T) {
	for _, lang := range langs {
		data, err := bundleFiles.ReadFile("bundles/message_" + lang + ".properties")
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if !strings.HasPrefix(text, "# xxl-job 2.4.2") || !strings.HasSuffix(text, "\n") {
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
		if !slices.IsSorted(keys) {
			t.Errorf("%s: keys not sorted", lang)
		}
		if len(keys) != wantKeyCount {
			t.Errorf("%s: %d key lines, want %d", lang, len(keys), wantKeyCount)
		}
	}
}
