package trigger

import (
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

func TestTypeTitle(t *testing.T) {
	en := i18n.Load("en")
	tests := []struct {
		typ  Type
		want string
	}{
		{TypeParent, "Parent job trigger"},
		{TypeCron, "Cron trigger"},
		{"WORKFLOW", "WORKFLOW"}, // no bundle names it
	}
	for _, tt := range tests {
		if got := tt.typ.Title(en); got != tt.want {
			t.Errorf("%s.Title = %q, want %q", tt.typ, got, tt.want)
		}
	}
}
