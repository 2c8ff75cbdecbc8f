package trigger

import (
	"reflect"
	"testing"
)

// TestRegistryList follows scheduler.md §5 step 5: split on ',', items not
// trimmed, trailing empty items dropped, nil for a null or blank list.
func TestRegistryList(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		in   *string
		want []string
	}{
		{nil, nil},
		{s(""), nil},
		{s("  "), nil},
		{s("a"), []string{"a"}},
		{s("a,b"), []string{"a", "b"}},
		{s("a,b,"), []string{"a", "b"}},
		{s(",a"), []string{"", "a"}},
		{s("a,,b"), []string{"a", "", "b"}},
		{s(" a , b"), []string{" a ", " b"}},
		{s(",,"), []string{}},
	}
	for _, tc := range tests {
		got := registryList(tc.in)
		if !reflect.DeepEqual(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("registryList(%v) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

// TestParseSharding follows scheduler.md §5 step 6: two parts that both
// parse as a Java int, else ignored.
func TestParseSharding(t *testing.T) {
	tests := []struct {
		in   string
		want shard
		ok   bool
	}{
		{"", shard{}, false},
		{"1/3", shard{1, 3}, true},
		{"0/1", shard{0, 1}, true},
		{"+1/3", shard{1, 3}, true},
		{"-1/3", shard{-1, 3}, true},
		{"1/3/", shard{1, 3}, true}, // String.split drops the trailing empty part
		{"1/3/4", shard{}, false},
		{"1", shard{}, false},
		{"a/3", shard{}, false},
		{" 1/3", shard{}, false},
		{"1/2147483648", shard{}, false},
		{"/", shard{}, false},
	}
	for _, tc := range tests {
		got, ok := parseSharding(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseSharding(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestTypeTitleKey checks the trigger type → bundle key mapping
// (scheduler.md §6 placeholder table).
func TestTypeTitleKey(t *testing.T) {
	want := map[Type]string{
		TypeCron: "jobconf_trigger_type_cron", TypeManual: "jobconf_trigger_type_manual",
		TypeParent: "jobconf_trigger_type_parent", TypeAPI: "jobconf_trigger_type_api",
		TypeRetry: "jobconf_trigger_type_retry", TypeMisfire: "jobconf_trigger_type_misfire",
	}
	for typ, key := range want {
		if got := typ.TitleKey(); got != key {
			t.Errorf("%s.TitleKey() = %q, want %q", typ, got, key)
		}
	}
}
