package replay_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestReplayRecordings replays every exchange of every recording: requests
// the executor sent go to the Go admin handler, answers the executor gave
// are read by the Go client.
func TestReplayRecordings(t *testing.T) {
	recs := loadRecordings(t)
	var toAdminN, toExecutorN, checks int
	for _, rec := range recs {
		t.Run(rec.Scenario, func(t *testing.T) {
			for i, ex := range rec.Exchanges {
				switch ex.Direction {
				case toAdmin:
					t.Run(ex.Request.Path, func(t *testing.T) { checks += replayToAdmin(t, rec, ex) })
					toAdminN++
				case toExecutor:
					t.Run(ex.Request.Method+" "+ex.Request.Path, func(t *testing.T) { checks += replayToExecutor(t, rec, ex) })
					toExecutorN++
				default:
					t.Fatalf("exchange %d: direction %q", i, ex.Direction)
				}
			}
		})
	}
	t.Logf("replayed %d recordings: %d exchanges (%d executor->admin, %d admin->executor), %d checks",
		len(recs), toAdminN+toExecutorN, toAdminN, toExecutorN, checks)
	if toAdminN == 0 || toExecutorN == 0 {
		t.Fatal("a direction was not replayed")
	}
}
