package i18n

import (
	"maps"
	"testing"
)

// java.util.Properties.load(Reader) rules.
func TestParseProperties(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"basic", "a=b\nc=d", map[string]string{"a": "b", "c": "d"}},
		{"comments and blanks", "# x=y\n! p=q\n\n   \na=b\n", map[string]string{"a": "b"}},
		{"colon and space separators", "a:b\nc d\ne = f\ng  :  h", map[string]string{"a": "b", "c": "d", "e": "f", "g": "h"}},
		{"space after separator dropped, trailing kept", "a= b \n", map[string]string{"a": "b "}},
		{"second separator is value", "a==b\nc=:d", map[string]string{"a": "=b", "c": ":d"}},
		{"empty value", "a=\nb", map[string]string{"a": "", "b": ""}},
		{"leading whitespace on key line", " \t a=b", map[string]string{"a": "b"}},
		{"continuation", "a=one \\\n    two\\\n three", map[string]string{"a": "one twothree"}},
		{"even backslashes do not continue", "a=x\\\\\nb=y", map[string]string{"a": `x\`, "b": "y"}},
		{"comment is not continued", "# c \\\na=b", map[string]string{"a": "b"}},
		{"continuation at EOF", "a=x\\", map[string]string{"a": "x"}},
		{"escapes", `a=\t\n\r\f\=\:\#\\\q`, map[string]string{"a": "\t\n\r\f=:#\\q"}},
		{"escaped separator in key", `a\=b\ c=d`, map[string]string{"a=b c": "d"}},
		{"unicode escapes", `a=\u4efb\u52a1 \u00E9`, map[string]string{"a": "任务 é"}},
		{"surrogate pair", `a=\uD83D\uDE00`, map[string]string{"a": "😀"}},
		{"raw UTF-8", "a=任务调度中心", map[string]string{"a": "任务调度中心"}},
		{"CRLF and CR", "a=b\r\nc=d\re=f", map[string]string{"a": "b", "c": "d", "e": "f"}},
		{"last duplicate wins", "a=1\na=2", map[string]string{"a": "2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseProperties(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParsePropertiesMalformedUnicode(t *testing.T) {
	for _, in := range []string{`a=\u12`, `a=\uZZZZ`, `a\u1=b`} {
		if _, err := parseProperties(in); err == nil {
			t.Errorf("parseProperties(%q) succeeded, want error", in)
		}
	}
}
