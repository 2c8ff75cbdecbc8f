package i18n

import (
	"maps"
	"slices"
	"testing"
)

// TestOurs: our texts exist in every language with the same keys, and
// none shadows a key of a Java bundle of either generation.
func TestOurs(t *testing.T) {
	en := Ours("en")
	if len(en) < 10 || en["wf_menu"] != "Workflows" {
		t.Fatalf("Ours(en) = %d keys, wf_menu %q", len(en), en["wf_menu"])
	}
	want := slices.Sorted(maps.Keys(en))
	for _, lang := range []string{"zh_CN", "zh_TC", "xx"} {
		got := Ours(lang)
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, want) {
			t.Errorf("Ours(%s) keys %v, want those of en %v", lang, keys, want)
		}
		for k, v := range got {
			if v == "" {
				t.Errorf("Ours(%s) %s is empty", lang, k)
			}
		}
	}
	if Ours("zh_CN")["wf_menu"] != "工作流" {
		t.Errorf("Ours(zh_CN) wf_menu = %q", Ours("zh_CN")["wf_menu"])
	}
	for _, major := range []int{2, 3} {
		for _, lang := range []string{"en", "zh_CN", "zh_TC"} {
			b := LoadFor(major, lang)
			for k := range en {
				if _, ok := b.texts[k]; ok {
					t.Errorf("our key %s is also in the %s %s bundle", k, b.Version(), lang)
				}
			}
			all := b.WithOurs()
			if len(all) != len(b.texts)+len(en) || all["wf_menu"] == "" {
				t.Errorf("WithOurs of %s %s: %d texts", b.Version(), lang, len(all))
			}
		}
	}
}
