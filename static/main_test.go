package static_test

import (
	"os"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// The page tests share one Chromium (browser.ForTest), closed here.
func TestMain(m *testing.M) { os.Exit(browser.Main(m)) }
