package app

import (
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
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
