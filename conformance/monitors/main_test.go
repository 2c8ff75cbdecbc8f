package monitors

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that every admin, executor, SMTP server and database
// connection a test started is gone when the package ends.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
