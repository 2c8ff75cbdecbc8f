package jobs

import (
	"slices"

	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// Names stored in xxl_job_info, matched exactly like the Java enums'
// match() (routing.md §2–§4).
var (
	scheduleTypes = []string{cron.TypeNone, cron.TypeCron, cron.TypeFixRate}
	glueTypes     = []string{GlueBean, "GLUE_GROOVY", GlueShell, "GLUE_PYTHON", "GLUE_PHP", "GLUE_NODEJS", "GLUE_POWERSHELL"}
	blockTypes    = []string{"SERIAL_EXECUTION", "DISCARD_LATER", "COVER_EARLY"}
	misfireTypes  = []string{"DO_NOTHING", "FIRE_ONCE_NOW"}
)

// GLUE types the service treats specially.
const (
	GlueBean  = "BEAN"
	GlueShell = "GLUE_SHELL"
)

func knownScheduleType(s string) bool { return slices.Contains(scheduleTypes, s) }
func knownGlueType(s string) bool     { return slices.Contains(glueTypes, s) }
func knownBlock(s string) bool        { return slices.Contains(blockTypes, s) }
func knownMisfire(s string) bool      { return slices.Contains(misfireTypes, s) }
func knownRoute(s string) bool        { _, ok := route.Describe(s); return ok }

// IsGlue tells whether a glue type has GLUE source (the GLUE IDE refuses BEAN).
func IsGlue(glueType string) bool { return glueType != GlueBean }
