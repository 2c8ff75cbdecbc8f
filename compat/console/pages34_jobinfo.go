package console

import (
	"slices"

	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
)

// jobinfoPage34 is the 3.4.2 job list (JobInfoController.index): the
// groups the user may use — none is XxlJobException(jobgroup_empty) — and
// ?jobGroup= kept only when it is one of them (else -1, the first).
func (c *Console) jobinfoPage34(x *exchange) error {
	jobGroup, err := x.form.intOr("jobGroup", -1)
	if err != nil {
		return err
	}
	groups, err := c.permittedGroups(x.ctx, x.user)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return xxlJobException34(c.text("jobgroup_empty"))
	}
	opts := groupOptions(groups)
	if !slices.ContainsFunc(opts, func(g GroupOption) bool { return g.ID == jobGroup }) {
		jobGroup = -1
	}
	var routes []Option
	for _, r := range route.Strategies() {
		routes = append(routes, Option{Name: r.Name, Title: c.text(r.TitleKey)})
	}
	c.render(x, c.page(x, "jobinfo", JobInfoData34{
		Groups: opts, JobGroup: jobGroup, RouteStrategies: routes, GlueTypes: glueTypes34,
		BlockStrategies: c.options("SERIAL_EXECUTION", "jobconf_block_SERIAL_EXECUTION", "DISCARD_LATER",
			"jobconf_block_DISCARD_LATER", "COVER_EARLY", "jobconf_block_COVER_EARLY"),
		ScheduleTypes: c.options(cron.TypeNone, "schedule_type_none", cron.TypeCron, "schedule_type_cron",
			cron.TypeFixRate, "schedule_type_fix_rate"),
		MisfireStrategies: c.options("DO_NOTHING", "misfire_strategy_do_nothing", "FIRE_ONCE_NOW", "misfire_strategy_fire_once_now"),
		ExportPath:        exportPath34,
		ImportPath:        importPath34,
		Zones:             c.zoneChoice(),
	}))
	return nil
}
