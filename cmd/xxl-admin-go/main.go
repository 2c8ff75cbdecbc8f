// Command xxl-admin-go is the scheduling center: a drop-in replacement for
// the Java xxl-job admin.
package main

import (
	"os"
	// The zone database is compiled in (about 450 kB): the container image
	// has no /usr/share/zoneinfo, yet serverTimezone=Asia/Shanghai in a JDBC
	// URL, TZ=PRC and crons evaluated in a zone must resolve there too.
	_ "time/tzdata"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdout, os.Stderr))
}
