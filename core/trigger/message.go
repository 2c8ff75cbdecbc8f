package trigger

import (
	"strconv"
	"strings"
)

// Texts resolves server-side i18n keys in the configured language
// (scheduler.md §12); *i18n.Bundle satisfies it.
type Texts interface {
	Text(key string) string
}

// colon is the full-width colon U+FF1A that trigger_msg uses everywhere.
const colon = "："

// runHeader opens the run section; its markup is literal in every language.
const (
	runHeaderOpen  = `<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>`
	runHeaderClose = `<<<<<<<<<<< </span><br>`
)

// message holds everything trigger_msg shows (scheduler.md §6).
type message struct {
	Type         Type
	AdminAddress string
	AddressType  int      // group address_type after a possible override
	Registry     []string // nil prints "null"
	RouteTitle   string
	Shard        *shard // set only for SHARDING_BROADCAST: "(i/t)" suffix
	BlockTitle   string
	Timeout      int
	FailRetry    int
	// RouteMsg is the router's message (address-empty text, FAILOVER or
	// BUSYOVER probe report, or our own failure text); "" means Java's null.
	RouteMsg string
	// Run is the /run outcome; nil when no address was chosen.
	Run *runOutcome
	// Handler and Param are the job's handler and the effective
	// parameter; only Layout342 shows them (nil prints "null").
	Handler *string
	Param   *string
}

// runOutcome is what /run answered at an address; Msg nil prints "null".
type runOutcome struct {
	Address string
	Code    int
	Msg     *string
}

// escapeText makes a value text in the HTML that trigger_msg is: the
// console (ours, and Java's reading the same database) shows trigger_msg
// as HTML, and a rogue executor's "<script>" in its answer or its
// registered address would otherwise be stored markup. Only &, < and >
// are escaped — values sit between tags, never in attributes — so a value
// without them reads exactly as Java writes it.
var escapeText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// render builds the exact trigger_msg text: no newlines, each "<br>"
// directly after the previous value. Java's own markup (<br>, the coloured
// span) is kept; every value is escaped (escapeText), the route message
// being composed of escaped values already.
func (m message) render(t Texts) string {
	var b strings.Builder
	b.Grow(512)
	m.writeConfig(&b, t)
	if m.RouteMsg != "" {
		b.WriteString(m.RouteMsg)
		b.WriteString("<br><br>")
	}
	if m.Run != nil {
		b.WriteString(runBlock(t, *m.Run))
	}
	return b.String()
}

// renderAs renders in the given layout.
func (m message) renderAs(l Layout, t Texts) string {
	if l == Layout342 {
		return m.render342(t)
	}
	return m.render(t)
}

// writeConfig writes what both layouts share: the trigger's configuration
// up to and including the run header.
func (m message) writeConfig(b *strings.Builder, t Texts) {
	field := func(key, value string) {
		b.WriteString(t.Text(key))
		b.WriteString(colon)
		b.WriteString(value)
	}
	field("jobconf_trigger_type", m.Type.Title(t))
	b.WriteString("<br>")
	field("jobconf_trigger_admin_adress", escapeText(m.AdminAddress))
	b.WriteString("<br>")
	regType := "jobgroup_field_addressType_1"
	if m.AddressType == 0 {
		regType = "jobgroup_field_addressType_0"
	}
	field("jobconf_trigger_exe_regtype", t.Text(regType))
	b.WriteString("<br>")
	field("jobconf_trigger_exe_regaddress", listText(m.Registry))
	b.WriteString("<br>")
	field("jobinfo_field_executorRouteStrategy", escapeText(m.RouteTitle))
	if m.Shard != nil {
		b.WriteString("(" + m.Shard.text() + ")")
	}
	b.WriteString("<br>")
	field("jobinfo_field_executorBlockStrategy", escapeText(m.BlockTitle))
	b.WriteString("<br>")
	field("jobinfo_field_timeout", strconv.Itoa(m.Timeout))
	b.WriteString("<br>")
	field("jobinfo_field_executorFailRetryCount", strconv.Itoa(m.FailRetry))
	b.WriteString(runHeaderOpen)
	b.WriteString(t.Text("jobconf_trigger_run"))
	b.WriteString(runHeaderClose)
}

// runBlock is the rewritten /run msg: the words address, code and msg are
// literal English in every language.
func runBlock(t Texts, r runOutcome) string {
	msg := "null"
	if r.Msg != nil {
		msg = *r.Msg
	}
	return t.Text("jobconf_trigger_run") + colon + "<br>address" + colon + escapeText(r.Address) +
		"<br>code" + colon + strconv.Itoa(r.Code) + "<br>msg" + colon + escapeText(msg)
}

func (s shard) text() string { return strconv.Itoa(s.index) + "/" + strconv.Itoa(s.total) }
