package trigger

import "strings"

// Type is why a trigger happened (Java TriggerTypeEnum); it only shows in
// trigger_msg.
type Type string

// Trigger types, scheduler.md §5 table.
const (
	TypeCron    Type = "CRON"
	TypeManual  Type = "MANUAL"
	TypeParent  Type = "PARENT"
	TypeAPI     Type = "API"
	TypeRetry   Type = "RETRY"
	TypeMisfire Type = "MISFIRE"
)

// TitleKey is the i18n key of the type's title (scheduler.md §12), e.g.
// jobconf_trigger_type_cron. The known types' keys are constants: a key
// built per trigger cost two allocations.
func (t Type) TitleKey() string {
	switch t {
	case TypeCron:
		return "jobconf_trigger_type_cron"
	case TypeManual:
		return "jobconf_trigger_type_manual"
	case TypeParent:
		return "jobconf_trigger_type_parent"
	case TypeAPI:
		return "jobconf_trigger_type_api"
	case TypeRetry:
		return "jobconf_trigger_type_retry"
	case TypeMisfire:
		return "jobconf_trigger_type_misfire"
	}
	return "jobconf_trigger_type_" + strings.ToLower(string(t))
}

// Title is the type's title in the bundle: for a type the Java bundles do
// not name (WORKFLOW, a workflow node's trigger) the type itself, rather
// than the key the bundle would echo.
func (t Type) Title(texts Texts) string {
	key := t.TitleKey()
	if title := texts.Text(key); title != key {
		return title
	}
	return string(t)
}
