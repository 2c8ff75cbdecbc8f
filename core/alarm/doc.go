// Package alarm sends the fail monitor's alarms over the configured channels.
package alarm

import (
	_ "github.com/emersion/go-smtp" // test SMTP listener (kept in go.mod for the alarm tests)
	_ "github.com/wneessen/go-mail" // e-mail channel
)
