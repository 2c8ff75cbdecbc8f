package api

import "testing"

// §2.2 step 3 and §4; header cases from auth_wrong_token / auth_missing_token.
func TestTokenAccepted(t *testing.T) {
	tests := []struct {
		name       string
		configured string
		header     string
		present    bool
		want       bool
	}{
		{name: "match", configured: "default_token", header: "default_token", present: true, want: true},
		{name: "wrong", configured: "default_token", header: "wrong_token", present: true},
		{name: "case differs", configured: "default_token", header: "DEFAULT_TOKEN", present: true},
		{name: "header not trimmed", configured: "default_token", header: "default_token ", present: true},
		{name: "configured not trimmed", configured: " default_token", header: "default_token", present: true},
		{name: "empty header", configured: "default_token", header: "", present: true},
		{name: "absent header", configured: "default_token", present: false},
		{name: "prefix", configured: "default_token", header: "default", present: true},
		{name: "empty configured accepts all", configured: "", header: "anything", present: true, want: true},
		{name: "empty configured accepts none", configured: "", present: false, want: true},
		{name: "blank configured accepts all", configured: " \t\x00", header: "x", present: true, want: true},
		{name: "em space is not blank for trim", configured: "\u2003", header: "\u2003", present: true, want: true},
		{name: "em space configured rejects others", configured: "\u2003", header: "", present: true},
	}
	for _, tt := range tests {
		if got := TokenAccepted(tt.configured, tt.header, tt.present); got != tt.want {
			t.Errorf("%s: TokenAccepted(%q, %q, %v) = %v", tt.name, tt.configured, tt.header, tt.present, got)
		}
	}
}
