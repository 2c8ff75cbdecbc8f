package api

import (
	"encoding/json"
	"testing"
)

// Gson binding leniency, package documentation; the recorded cases come
// from malformed_or_unusual_body.json (/idleBeat bodies).
func TestDecodeJavaInt(t *testing.T) {
	tests := []struct {
		raw     string
		want    int
		wantErr bool
	}{
		{raw: `7003`, want: 7003},
		{raw: `"7004"`, want: 7004},    // recording: number given as string accepted
		{raw: `7005.0`, want: 7005},    // recording: integral float accepted
		{raw: `7006.5`, wantErr: true}, // recording: "Expected an int but was 7006.5"
		{raw: `7e3`, want: 7000},
		{raw: `-0.0`, want: 0},
		{raw: `" 12 "`, want: 12},
		{raw: `"+5"`, want: 5},
		{raw: `null`, want: 0}, // Gson leaves a primitive at its default
		{raw: `2147483647`, want: 2147483647},
		{raw: `2147483648`, wantErr: true},
		{raw: `-2147483648`, want: -2147483648},
		{raw: `-2147483649`, wantErr: true},
		{raw: `"abc"`, wantErr: true}, // recording: NumberFormatException for "abc"
		{raw: `"NaN"`, wantErr: true},
		{raw: `"1e400"`, wantErr: true},
		{raw: `true`, wantErr: true},
		{raw: `{}`, wantErr: true},
		{raw: `[]`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := decodeJavaInt(json.RawMessage(tt.raw))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("decodeJavaInt(%s) = %d, %v; want %d, err %v", tt.raw, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestDecodeJavaLong(t *testing.T) {
	tests := []struct {
		raw     string
		want    int64
		wantErr bool
	}{
		{raw: `1795328526855`, want: 1795328526855},
		{raw: `"1795328526855"`, want: 1795328526855},
		{raw: `1.795328526855E12`, want: 1795328526855},
		{raw: `9223372036854775807`, want: 9223372036854775807},
		{raw: `9223372036854775808`, wantErr: true},
		{raw: `9.3e18`, wantErr: true},
		{raw: `-9223372036854775808`, want: -9223372036854775808},
		{raw: `1.5`, wantErr: true},
		{raw: `null`, want: 0},
	}
	for _, tt := range tests {
		got, err := decodeJavaLong(json.RawMessage(tt.raw))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("decodeJavaLong(%s) = %d, %v; want %d, err %v", tt.raw, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestDecodeJavaString(t *testing.T) {
	tests := []struct {
		raw     string
		want    *string
		wantErr bool
	}{
		{raw: `"a\u003cb"`, want: ptr("a<b")},
		{raw: `""`, want: ptr("")},
		{raw: `null`, want: nil},
		{raw: `12.50`, want: ptr("12.50")}, // Gson nextString keeps the literal
		{raw: `true`, want: ptr("true")},
		{raw: `{}`, wantErr: true},
		{raw: `["x"]`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := decodeJavaString(json.RawMessage(tt.raw))
		if (err != nil) != tt.wantErr || !equalPtr(got, tt.want) {
			t.Errorf("decodeJavaString(%s) = %v, %v; want %v, err %v", tt.raw, show(got), err, show(tt.want), tt.wantErr)
		}
	}
}

func TestDecodeJavaBool(t *testing.T) {
	tests := []struct {
		raw     string
		want    bool
		wantErr bool
	}{
		{raw: `true`, want: true},
		{raw: `false`},
		{raw: `null`},
		{raw: `"TRUE"`, want: true}, // Boolean.parseBoolean ignores case
		{raw: `"yes"`},
		{raw: `1`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := decodeJavaBool(json.RawMessage(tt.raw))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("decodeJavaBool(%s) = %v, %v; want %v, err %v", tt.raw, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestDecodeObjectShapes(t *testing.T) {
	tests := []struct {
		name        string
		body        string
		wantPresent bool
		wantErr     bool
		wantKeys    string
	}{
		{name: "empty body is Java null", body: ``},
		{name: "whitespace is Java null", body: " \n\t"},
		{name: "null", body: `null`},
		{name: "object", body: `{"a":1,"b":{"x":[1]}}`, wantPresent: true, wantKeys: "a,b,"},
		{name: "duplicate keys seen in order", body: `{"a":1,"a":2}`, wantPresent: true, wantKeys: "a,a,"},
		{name: "array", body: `[]`, wantErr: true},
		{name: "string", body: `"x"`, wantErr: true},
		{name: "trailing data", body: `{"jobId":1} trailing`, wantErr: true}, // recording malformed_or_unusual_body
		{name: "second value", body: `{} {}`, wantErr: true},
		{name: "null then data", body: `null x`, wantErr: true},
		{name: "unquoted key", body: `{jobId:7003}`, wantErr: true}, // divergence: Gson accepts it
		{name: "syntax error", body: `{not json`, wantErr: true},
		{name: "unterminated", body: `{"a":1`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys := ""
			present, err := decodeObject([]byte(tt.body), func(key string, _ json.RawMessage) error {
				keys += key + ","
				return nil
			})
			if present != tt.wantPresent || (err != nil) != tt.wantErr {
				t.Fatalf("present=%v err=%v; want present=%v err=%v", present, err, tt.wantPresent, tt.wantErr)
			}
			if !tt.wantErr && keys != tt.wantKeys {
				t.Errorf("keys %q, want %q", keys, tt.wantKeys)
			}
		})
	}
}

func TestJavaBlankness(t *testing.T) {
	tests := []struct {
		s                 string
		trimBlank, hasTxt bool
	}{
		{s: "", trimBlank: true, hasTxt: false},
		{s: " \t\n", trimBlank: true, hasTxt: false},
		{s: "\x00", trimBlank: true, hasTxt: true},     // trim strips U+0000, isWhitespace does not
		{s: "\u2003", trimBlank: false, hasTxt: false}, // em space: whitespace, not trimmed
		{s: "\u00a0", trimBlank: false, hasTxt: true},  // no-break space is not whitespace
		{s: " x ", trimBlank: false, hasTxt: true},
	}
	for _, tt := range tests {
		if got := isTrimBlank(tt.s); got != tt.trimBlank {
			t.Errorf("isTrimBlank(%q) = %v", tt.s, got)
		}
		if got := hasText(tt.s); got != tt.hasTxt {
			t.Errorf("hasText(%q) = %v", tt.s, got)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func show(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return "\"" + *s + "\""
}
