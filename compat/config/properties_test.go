package config

import (
	"strings"
	"testing"
)

func TestParseProperties(t *testing.T) {
	in := "# comment\n! also comment\n\n" +
		"a=1\n" +
		"b : two words \n" +
		"c three\n" +
		"  d=indented\n" +
		"e=line\\\n    continued\n" +
		"f=\\u4e2d\\u6587\\ttab\n" +
		"g\\=key=v\n" +
		"h=\n" +
		"i=trailing\\\\\n" +
		"spring.datasource.url=jdbc:mysql://127.0.0.1:3306/xxl_job?useUnicode=true&characterEncoding=UTF-8\n"
	got, err := ParseProperties(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a": "1", "b": "two words ", "c": "three", "d": "indented", "e": "linecontinued",
		"f": "中文\ttab", "g=key": "v", "h": "", "i": `trailing\`,
		"spring.datasource.url": "jdbc:mysql://127.0.0.1:3306/xxl_job?useUnicode=true&characterEncoding=UTF-8",
	}
	if len(got) != len(want) {
		t.Errorf("got %d keys: %q", len(got), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q = %q, want %q", k, got[k], v)
		}
	}
	if _, err := ParseProperties(strings.NewReader("x=\\u12")); err == nil {
		t.Error("short \\u escape accepted")
	}
}
