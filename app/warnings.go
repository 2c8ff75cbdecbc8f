package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// defaultToken is the Java admin's bundled xxl.job.accessToken: public, so
// as good as none.
const defaultToken = "default_token"

// securityWarnings lists the unsafe settings the admin runs with. Each is
// logged loudly at start and shown in /actuator/health, because the effect
// is severe and silent: whoever can reach the port can register an address
// under any app name and receive that app's next triggers — parameters and
// GLUE sources included, secrets and all.
func securityWarnings(cfg *config.Config) []string {
	var w []string
	where := "on " + cfg.ServerAddress
	if cfg.ServerAddress == "" {
		where = "on every network interface (server.address is not set)"
	}
	switch token := strings.TrimSpace(cfg.AccessToken); token {
	case "":
		w = append(w, "xxl.job.accessToken is empty: the executor API accepts any client "+where+
			"; anyone who reaches it can register an executor address and receive job triggers, GLUE sources included. "+
			"Set a token (xxl.job.accessToken, or xxl.job.accessToken.file to read it from a file) on the admin and every executor.")
	case defaultToken:
		w = append(w, "xxl.job.accessToken is the public default \"default_token\": the executor API is open to anyone "+where+
			"; anyone who reaches it can register an executor address and receive job triggers, GLUE sources included. "+
			"Set a token of your own (xxl.job.accessToken, or xxl.job.accessToken.file) on the admin and every executor.")
	}
	return w
}

// zoneCheck finds jobs whose schedule_timezone a Java admin sharing the
// database ignores: the Java admins up to 3.4.2 neither read nor write the
// column and fire such a job in their own zone. Its only trace is the next
// fire time such an admin writes (jobs.ForeignZoneWrites), so the check
// runs once at start, before the schedule loop rewrites any row, and its
// warning is logged and shown in /actuator/health like the security ones.
func zoneCheck(ctx context.Context, svc *jobs.Service, log zerolog.Logger) []string {
	found, err := svc.ForeignZoneWrites(ctx)
	if err != nil {
		log.Warn().Err(err).Msg("could not check the zoned jobs for a Java admin's writes")
		return nil
	}
	if len(found) == 0 {
		return nil
	}
	ids := make([]int, len(found))
	for i, f := range found {
		ids[i] = f.JobID
	}
	first := found[0].String()
	if len(found) > 1 {
		first += fmt.Sprintf(" and %d more", len(found)-1)
	}
	w := "a Java admin shares this database: it ignores xxl_job_info.schedule_timezone and fires jobs that have a time zone " +
		"of their own in its own zone, as the next fire times it wrote show (" + first + "). " +
		"Run only xxl-admin-go admins on a database with zoned jobs, or clear those jobs' zones (docs/job-time-zones.md)."
	log.Warn().Str("check", "schedule-timezone").Ints("jobs", ids).Msg(w)
	return []string{w}
}
