// Command record342 records the web-console traffic of the real xxl-job
// admin 3.4.2 into conformance/testdata/recordings/java-admin-3.4.2 (the
// README there describes the files): for each language it creates a fresh
// MariaDB database from the release's DDL plus the fixture
// (consolereplay.Fixture342), starts the fake executor and the jar
// (TZ=Asia/Shanghai, loopback mail host, xxl.job.i18n=<lang>) and runs the
// scenarios of consolereplay's 3.4.2 plan in order, sending what the
// console's page scripts send. consolereplay replays the files against
// the jar (TestReplayJava342) and, later, against ours.
//
//	go run ./conformance/record342 -out conformance/testdata/recordings/java-admin-3.4.2
//
// It needs java, the jar (../shared/reference/xxl-job-admin-3.4.2.jar or
// $XXL_TEST_JAVA_ADMIN_JAR_342), the DDL (../shared/spec/schema-3.4.2.sql
// or $XXL_TEST_SCHEMA_342) and a MariaDB account that may create
// databases ($XXL_TEST_MYSQL_DSN, default xxl:xxl_pwd@tcp(127.0.0.1:3306)/).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	var o options
	flag.StringVar(&o.out, "out", "conformance/testdata/recordings/java-admin-3.4.2", "directory for the recordings")
	flag.StringVar(&o.langs, "lang", "en,zh_CN,zh_TC", "languages to record, comma-separated")
	flag.StringVar(&o.jar, "jar", "", "the 3.4.2 admin jar (default: the reference jar)")
	flag.StringVar(&o.dsn, "dsn", os.Getenv("XXL_TEST_MYSQL_DSN"), "go-sql-driver DSN without database of a MariaDB user that may create databases")
	flag.StringVar(&o.executor, "executor", "127.0.0.1:19991", "address of the fake executor (the recordings show it)")
	flag.BoolVar(&o.keep, "keep", false, "keep each language's database (rec342_<lang>) for inspection")
	flag.Parse()
	if o.dsn == "" {
		o.dsn = "xxl:xxl_pwd@tcp(127.0.0.1:3306)/"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := recordAll(ctx, o, strings.Split(o.langs, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "record342:", err)
		os.Exit(1)
	}
}
