package route

import (
	"context"
	"strconv"
	"strings"
)

// Reply is an executor's answer to /beat or /idleBeat (executor-protocol.md
// §3.2): Java's ReturnT without content. A nil Msg is Java's null, which
// the report prints as "null"; a live executor's beat answers {"code":200}
// with no msg (recording beat.json), so this is the common case.
type Reply struct {
	Code int
	Msg  *string
}

// Prober probes executors for FAILOVER and BUSYOVER. The executor HTTP
// client satisfies it through an adapter. An error means the probe itself
// failed; it is reported as code 500 with err.Error() as msg, like Java's
// catch of an exception ("" + e). Transport failures the Java client turns
// into a 500 ReturnT ("xxl-job remoting error(...)") should come back as a
// Reply, not an error, to keep that text. Probes run one after another, as
// in Java, so the prober's own timeouts bound the delay; a cancelled ctx
// simply makes the remaining probes fail into the report.
type Prober interface {
	Beat(ctx context.Context, address string) (Reply, error)
	IdleBeat(ctx context.Context, address string, jobID int) (Reply, error)
}

// blankAddressMsg is what Java reports for a blank list item: its client
// lookup yields null and the probe throws (routing.md §1.6).
const blankAddressMsg = "java.lang.NullPointerException"

// probeFunc probes one address.
type probeFunc func(ctx context.Context, p Prober, address string, jobID int) (Reply, error)

func beatProbe(ctx context.Context, p Prober, address string, _ int) (Reply, error) {
	return p.Beat(ctx, address)
}

func idleBeatProbe(ctx context.Context, p Prober, address string, jobID int) (Reply, error) {
	return p.IdleBeat(ctx, address, jobID)
}

// probeOver implements FAILOVER (beat, label jobconf_beat) and BUSYOVER
// (idleBeat, label jobconf_idleBeat): probe in list order and take the
// first address answering 200 (routing.md §1.6–1.7).
type probeOver struct {
	prober   Prober
	text     func(key string) string
	labelKey string
	probe    probeFunc
}

func (s probeOver) Route(ctx context.Context, req Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	label := s.text(s.labelKey)
	var report strings.Builder
	for _, addr := range addresses {
		reply := s.probeOne(ctx, addr, req.JobID)
		if report.Len() > 0 {
			report.WriteString("<br><br>")
		}
		writeEntry(&report, label, addr, reply)
		if reply.Code == CodeSuccess {
			return Result{Code: CodeSuccess, Msg: report.String(), Address: addr}
		}
	}
	return Result{Code: CodeFail, Msg: report.String()}
}

// probeOne never fails: every problem becomes a 500 reply for the report.
func (s probeOver) probeOne(ctx context.Context, address string, jobID int) Reply {
	if strings.TrimFunc(address, isJavaTrimmed) == "" {
		return failReply(blankAddressMsg)
	}
	if s.prober == nil {
		return failReply("route: no executor prober configured")
	}
	reply, err := s.probe(ctx, s.prober, address, jobID)
	if err != nil {
		return failReply(err.Error())
	}
	return reply
}

func failReply(msg string) Reply { return Reply{Code: CodeFail, Msg: &msg} }

// isJavaTrimmed matches what String.trim() strips: every char <= U+0020.
func isJavaTrimmed(r rune) bool { return r <= ' ' }

// escapeText makes an executor's address or answer text in the HTML the
// report becomes part of (trigger_msg, which consoles show as HTML): &, <
// and > are escaped, so a value without them reads as Java writes it.
var escapeText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// writeEntry appends one report entry; "：" is U+FF1A and the words are
// literal in every language. The address and the answer are escaped.
func writeEntry(b *strings.Builder, label, address string, r Reply) {
	msg := "null"
	if r.Msg != nil {
		msg = *r.Msg
	}
	b.WriteString(label)
	b.WriteString("：<br>address：")
	b.WriteString(escapeText(address))
	b.WriteString("<br>code：")
	b.WriteString(strconv.Itoa(r.Code))
	b.WriteString("<br>msg：")
	b.WriteString(escapeText(msg))
}
