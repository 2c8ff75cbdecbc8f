package app

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// generationOptions are the core packages' options that follow the Java
// admin owning the database: 2.4.2 on a 2.x schema, 3.4.2 on a 3.x one.
// Core packages never see the generation itself, only these.
type generationOptions struct {
	major      int              // i18n.LoadFor's major
	layout     trigger.Layout   // trigger_msg
	children   thread.ChildRule // child_jobid reading
	retryColor string           // the fail monitor's retry marker
	fixRate    cron.FixRate     // FIX_RATE next times (schedule, start, preview)
	jobRules   jobs.Rules       // the job service's checks
}

func genOptions(g schema.Generation) generationOptions {
	if g == schema.Gen3 {
		return generationOptions{major: 3, layout: trigger.Layout342, children: thread.ChildRule342,
			retryColor: thread.RetryColor342, fixRate: cron.FixRate342, jobRules: jobs.Rules342}
	}
	return generationOptions{major: 2, layout: trigger.Layout242, children: thread.ChildRule242,
		retryColor: thread.RetryColor242, fixRate: cron.FixRate242, jobRules: jobs.Rules242}
}

// texts is the scheduler's bundle in the configured language.
func (o generationOptions) texts(lang string) *i18n.Bundle { return i18n.LoadFor(o.major, lang) }
