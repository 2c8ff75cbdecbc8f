package consolereplay

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/storetest"
)

// javaJar is the reference admin, kept beside the repository
// (<module root>/../shared/reference); EnvJavaAdminJar overrides it.
const javaJar = "../shared/reference/xxl-job-admin-2.4.2.jar"

// EnvJavaAdminJar names the variable that points at the jar elsewhere.
const EnvJavaAdminJar = "XXL_TEST_JAVA_ADMIN_JAR"

// TestReplayJava replays every recording against the real Java admin
// 2.4.2, one process per language on a fresh MariaDB database: it proves
// the harness (fixture, scenario order, setup hooks, comparison) before it
// judges our console.
func TestReplayJava(t *testing.T) {
	if os.Getenv("XXL_TEST_JAVA") != "1" || os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the Java admin replay needs XXL_TEST_JAVA=1 and " + storetest.EnvMySQL)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("[suite-off] the Java admin replay needs java on PATH (XXL_TEST_JAVA=1)")
	}
	jar := os.Getenv(EnvJavaAdminJar)
	if jar == "" {
		jar = filepath.Join(moduleRoot(t), filepath.FromSlash(javaJar))
	}
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("reference jar (set %s to use another path): %v", EnvJavaAdminJar, err)
	}
	for _, plan := range Plans() {
		t.Run(plan.Lang, func(t *testing.T) {
			t.Parallel()
			url, user, pass := storetest.MySQLURLZone(t, Zone)
			replayPlan(t, JavaTarget{Jar: jar}, plan, database{url + "&useUnicode=true&characterEncoding=UTF-8", user, pass}, CookieJava, nil)
		})
	}
}
