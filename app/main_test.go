package app_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

// TestMainCronSubcommand: `xxl-admin-go cron` prints one JSON object and
// exits 0 for a valid expression, 1 for an invalid one (issue 4).
func TestMainCronSubcommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := app.Main([]string{"cron", "--tz", "Asia/Shanghai", "--from", "2024-01-01T00:00:00Z", "--count", "2", "0 0 12 * * ?"}, &out, &errOut)
	var got struct {
		Expr   string  `json:"expr"`
		Valid  bool    `json:"valid"`
		Error  string  `json:"error"`
		NextMs []int64 `json:"next_ms"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || code != 0 {
		t.Fatalf("code %d, out %q, err %v", code, out.String(), err)
	}
	// 12:00 Shanghai = 04:00 UTC.
	if !got.Valid || len(got.NextMs) != 2 || got.NextMs[0] != 1704081600000 || got.NextMs[1] != 1704168000000 {
		t.Fatalf("got %+v", got)
	}
	out.Reset()
	if code := app.Main([]string{"cron", "0 0 12 * * *"}, &out, &errOut); code != 1 || !strings.Contains(out.String(), `"valid":false`) {
		t.Fatalf("invalid: code %d out %s", code, out.String())
	}
}

func TestMainConfigErrorExit(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := app.Main([]string{"--server.port=abc"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "server.port") {
		t.Fatalf("code %d stderr %q", code, errOut.String())
	}
	if code := app.Main([]string{"--help"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "cron") {
		t.Fatalf("help: code %d", code)
	}
}
