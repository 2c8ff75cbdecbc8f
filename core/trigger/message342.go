package trigger

import (
	"strings"
)

// render342 builds the trigger_msg of the 3.4.2 admin (JobTrigger.java,
// processTrigger step 5, lines 200–235 of the 3.4.2 source): the same
// configuration block as 2.4.2 (render), then
//
//	<br>执行器地址：<address> | address route fail, <route msg> | address route fail.
//	<br>JobHandler：<handler>            (only when the handler is not blank)
//	<br>任务参数：<param>                 (the effective parameter; null prints "null")
//	<br>调度备注：success | error, <msg> | fail
//
// where the error is the rewritten /run answer ("触发调度：<br>address：…
// <br>code：…<br>msg：…", doTrigger), "Address Router Fail." when no
// address was chosen, or the exception the 3.4.2 HTTP client threw (its
// first line only: Java appends the JVM's stack trace, whose frames mean
// nothing for this admin). A probe report of a FAILOVER/BUSYOVER route
// that found an address is not shown any more. Every value is escaped as
// in render.
func (m message) render342(t Texts) string {
	var b strings.Builder
	b.Grow(512)
	m.writeConfig(&b, t)
	b.WriteString("<br>")
	b.WriteString(t.Text("joblog_field_executorAddress"))
	b.WriteString(colon)
	switch {
	case m.Run != nil && javaTrim(m.Run.Address) != "":
		b.WriteString(escapeText(m.Run.Address))
	case m.Run == nil && m.RouteMsg != "":
		b.WriteString("address route fail, ")
		b.WriteString(m.RouteMsg)
	default:
		b.WriteString("address route fail.")
	}
	if m.Handler != nil && javaTrim(*m.Handler) != "" {
		b.WriteString("<br>JobHandler")
		b.WriteString(colon)
		b.WriteString(escapeText(*m.Handler))
	}
	b.WriteString("<br>")
	b.WriteString(t.Text("jobinfo_field_executorparam"))
	b.WriteString(colon)
	if m.Param == nil {
		b.WriteString("null")
	} else {
		b.WriteString(escapeText(*m.Param))
	}
	b.WriteString("<br>")
	b.WriteString(t.Text("joblog_field_triggerMsg"))
	b.WriteString(colon)
	b.WriteString(m.result342(t))
	return b.String()
}

// result342 is the trigger result: "success" for code 200, otherwise
// "error, " and the failure (Java's "fail" needs a null failure text,
// which none of its paths produce).
func (m message) result342(t Texts) string {
	r := m.Run
	switch {
	case r == nil:
		return "error, Address Router Fail."
	case r.Code == 200:
		return "success"
	case javaTrim(r.Address) == "":
		// Java finds no client for a blank address and fails with a
		// null-pointer error (as route's probes report it).
		return "error, java.lang.NullPointerException"
	}
	if r.Msg != nil {
		if e, ok := exception342(*r.Msg); ok {
			return "error, " + escapeText(javaRuntimeException+e)
		}
	}
	return "error, " + runBlock(t, *r)
}
