package trigger

import (
	"fmt"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

// Heads of the 3.4.2 trigger_msg: JobTrigger.java (3.4.2) lines 201–215,
// the same configuration block as 2.4.2, here for a FIRST-routed,
// manually registered executor list, as the reference jar wrote them.
const (
	head342zh = "任务触发类型：手动触发<br>调度机器：10.0.0.2<br>执行器-注册方式：手动录入<br>执行器-地址列表：[%s]<br>路由策略：%s<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：%d<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>"
	head342en = "Job trigger type：Manual trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Manual registration<br>Execotor-Registry Address：[%s]<br>Route Strategy：%s<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：%d<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>"
)

// TestMessageRender342 checks the 3.4.2 layout byte for byte. Each zh_CN
// text is the trigger_msg the 3.4.2 reference jar wrote for the same
// situation (TestJarTriggerMsg compares live), with its admin IP replaced
// by 10.0.0.2 and its stack trace cut after the first line; the en texts
// are the same template with the 3.4.2 en bundle.
func TestMessageRender342(t *testing.T) {
	down := "http://127.0.0.1:19009/"
	refused := "xxl-job remoting error(Connection refused), for url : " + down + "run"
	status := "xxl-job remoting fail, StatusCode(500) invalid. for url : http://127.0.0.1:19004/run"
	boom := "boom <b>x</b>"
	handler, empty := "demoJobHandler", ""
	base := message{Type: TypeManual, AdminAddress: "10.0.0.2", AddressType: 1, Handler: &handler, Param: &empty}

	tests := []struct {
		name string
		// cite is where Java builds the part that differs.
		cite string
		msg  func(t Texts) message
		en   string
		zh   string
	}{{
		name: "success",
		cite: "lines 216–218 (address), 224–230 (handler, param, success)",
		msg: func(t Texts) message {
			m := base
			m.Registry = []string{"http://127.0.0.1:19001/"}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.Run = &runOutcome{Address: "http://127.0.0.1:19001/", Code: 200}
			return m
		},
		zh: sprintf(head342zh, "http://127.0.0.1:19001/", "第一个", 0) + "<br>执行器地址：http://127.0.0.1:19001/<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：success",
		en: sprintf(head342en, "http://127.0.0.1:19001/", "First", 0) + "<br>Executor Address：http://127.0.0.1:19001/<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：success",
	}, {
		name: "executor answers an error",
		cite: "lines 231–232 with doTrigger's rewritten answer, lines 267–273; the executor's markup escaped (doc.go)",
		msg: func(t Texts) message {
			m := base
			m.Registry = []string{"http://127.0.0.1:19002/"}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.Run = &runOutcome{Address: "http://127.0.0.1:19002/", Code: 500, Msg: &boom}
			return m
		},
		zh: sprintf(head342zh, "http://127.0.0.1:19002/", "第一个", 0) + "<br>执行器地址：http://127.0.0.1:19002/<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, 触发调度：<br>address：http://127.0.0.1:19002/<br>code：500<br>msg：boom &lt;b&gt;x&lt;/b&gt;",
		en: sprintf(head342en, "http://127.0.0.1:19002/", "First", 0) + "<br>Executor Address：http://127.0.0.1:19002/<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：error, Trigger Job：<br>address：http://127.0.0.1:19002/<br>code：500<br>msg：boom &lt;b&gt;x&lt;/b&gt;",
	}, {
		name: "executor unreachable",
		cite: "line 277 (ThrowableTool.toString of xxl-tool HttpRequest.java:489's exception), first line",
		msg: func(t Texts) message {
			m := base
			m.Registry = []string{down}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.Run = &runOutcome{Address: down, Code: 500, Msg: &refused}
			return m
		},
		zh: sprintf(head342zh, down, "第一个", 0) + "<br>执行器地址：" + down + "<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, java.lang.RuntimeException: Http Request Error (Connection refused). for url : http://127.0.0.1:19009/run",
		en: sprintf(head342en, down, "First", 0) + "<br>Executor Address：" + down + "<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：error, java.lang.RuntimeException: Http Request Error (Connection refused). for url : http://127.0.0.1:19009/run",
	}, {
		name: "executor answers HTTP 500, no handler",
		cite: "line 224 (no JobHandler line for a blank handler); xxl-tool HttpResponse.java:87",
		msg: func(t Texts) message {
			m := base
			m.Handler = &empty
			m.Registry = []string{"http://127.0.0.1:19004/"}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.Run = &runOutcome{Address: "http://127.0.0.1:19004/", Code: 500, Msg: &status}
			return m
		},
		zh: sprintf(head342zh, "http://127.0.0.1:19004/", "第一个", 0) + "<br>执行器地址：http://127.0.0.1:19004/<br>任务参数：<br>调度备注：error, java.lang.RuntimeException: Http Request fail, statusCode(500) for url : http://127.0.0.1:19004/run",
		en: sprintf(head342en, "http://127.0.0.1:19004/", "First", 0) + "<br>Executor Address：http://127.0.0.1:19004/<br>Param：<br>Trigger Msg：error, java.lang.RuntimeException: Http Request fail, statusCode(500) for url : http://127.0.0.1:19004/run",
	}, {
		name: "no address (empty group)",
		cite: "line 187 (address empty), 219–220 (address route fail, …), 195 and 232 (Address Router Fail.)",
		msg: func(t Texts) message {
			m := base
			m.Type, m.AddressType, m.Registry, m.Param = TypeCron, 0, nil, nil
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.RouteMsg = t.Text("jobconf_trigger_address_empty")
			return m
		},
		zh: "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：null<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br><br>执行器地址：address route fail, 调度失败：执行器地址为空<br>JobHandler：demoJobHandler<br>任务参数：null<br>调度备注：error, Address Router Fail.",
		en: "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：null<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br><br>Executor Address：address route fail, Trigger Fail：registry address is empty<br>JobHandler：demoJobHandler<br>Param：null<br>Trigger Msg：error, Address Router Fail.",
	}, {
		name: "route failure (FAILOVER, every beat refused)",
		cite: "lines 219–220 with ExecutorRouteFailover.java:29 (e.getMessage())",
		msg: func(t Texts) message {
			m := base
			m.Registry = []string{down}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_failover"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.RouteMsg = t.Text("jobconf_beat") + "：<br>address：" + down + "<br>code：500<br>msg：Http Request Error (Connection refused). for url : " + down + "beat"
			return m
		},
		zh: sprintf(head342zh, down, "故障转移", 0) + "<br>执行器地址：address route fail, 心跳检测：<br>address：http://127.0.0.1:19009/<br>code：500<br>msg：Http Request Error (Connection refused). for url : http://127.0.0.1:19009/beat<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, Address Router Fail.",
		en: sprintf(head342en, down, "Failover", 0) + "<br>Executor Address：address route fail, Heartbeats：<br>address：http://127.0.0.1:19009/<br>code：500<br>msg：Http Request Error (Connection refused). for url : http://127.0.0.1:19009/beat<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：error, Address Router Fail.",
	}, {
		name: "FAILOVER success hides the probe report",
		cite: "lines 217–218: only the address",
		msg: func(t Texts) message {
			m := base
			m.Registry = []string{"http://127.0.0.1:19001/", "http://127.0.0.1:19003/"}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_failover"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.RouteMsg = t.Text("jobconf_beat") + "：<br>address：http://127.0.0.1:19001/<br>code：200<br>msg：null"
			m.Run = &runOutcome{Address: "http://127.0.0.1:19001/", Code: 200}
			return m
		},
		zh: sprintf(head342zh, "http://127.0.0.1:19001/, http://127.0.0.1:19003/", "故障转移", 0) + "<br>执行器地址：http://127.0.0.1:19001/<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：success",
		en: sprintf(head342en, "http://127.0.0.1:19001/, http://127.0.0.1:19003/", "Failover", 0) + "<br>Executor Address：http://127.0.0.1:19001/<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：success",
	}, {
		name: "broadcast shard 1 of 2",
		cite: "lines 206–208 (the shard after the route title), 176–180 (list[index])",
		msg: func(t Texts) message {
			m := base
			m.Registry = []string{"http://127.0.0.1:19001/", "http://127.0.0.1:19003/"}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_shard"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.Shard = &shard{index: 1, total: 2}
			m.Run = &runOutcome{Address: "http://127.0.0.1:19003/", Code: 200}
			return m
		},
		zh: sprintf(head342zh, "http://127.0.0.1:19001/, http://127.0.0.1:19003/", "分片广播(1/2)", 0) + "<br>执行器地址：http://127.0.0.1:19003/<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：success",
		en: sprintf(head342en, "http://127.0.0.1:19001/, http://127.0.0.1:19003/", "Sharding Broadcast(1/2)", 0) + "<br>Executor Address：http://127.0.0.1:19003/<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：success",
	}, {
		name: "retry of an unreachable executor",
		cite: "JobFailAlarmMonitorHelper.java:46 triggers RETRY with the log's parameter and count-1",
		msg: func(t Texts) message {
			m := base
			m.Type, m.Registry = TypeRetry, []string{down}
			m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
			m.Run = &runOutcome{Address: down, Code: 500, Msg: &refused}
			return m
		},
		zh: "任务触发类型：失败重试触发" + sprintf(head342zh, down, "第一个", 0)[len("任务触发类型：手动触发"):] + "<br>执行器地址：" + down + "<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, java.lang.RuntimeException: Http Request Error (Connection refused). for url : http://127.0.0.1:19009/run",
		en: "Job trigger type：Fail retry trigger" + sprintf(head342en, down, "First", 0)[len("Job trigger type：Manual trigger"):] + "<br>Executor Address：" + down + "<br>JobHandler：demoJobHandler<br>Param：<br>Trigger Msg：error, java.lang.RuntimeException: Http Request Error (Connection refused). for url : http://127.0.0.1:19009/run",
	}}
	for _, lang := range []string{"en", "zh_CN"} {
		texts := i18n.LoadFor(3, lang)
		for _, tc := range tests {
			t.Run(lang+"/"+tc.name, func(t *testing.T) {
				want := tc.zh
				if lang == "en" {
					want = tc.en
				}
				if got := tc.msg(texts).renderAs(Layout342, texts); got != want {
					t.Errorf("trigger_msg mismatch (JobTrigger.java %s)\n got: %s\nwant: %s", tc.cite, got, want)
				}
			})
		}
	}
}

// The 2.4.2 layout is still the default: the zero Layout renders as render.
func TestLayoutZeroIs242(t *testing.T) {
	texts := i18n.Load("zh_CN")
	m := message{Type: TypeCron, AdminAddress: "10.0.0.2", Registry: nil, RouteMsg: "x"}
	var l Layout
	if m.renderAs(l, texts) != m.render(texts) {
		t.Fatal("zero Layout is not the 2.4.2 layout")
	}
}

func TestException342(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"xxl-job remoting error(Connection refused), for url : http://h:1/run", "Http Request Error (Connection refused). for url : http://h:1/run"},
		{"xxl-job remoting error(Read timed out), for url : http://h:1/beat", "Http Request Error (Read timed out). for url : http://h:1/beat"},
		{"xxl-job remoting fail, StatusCode(404) invalid. for url : http://h:1/run", "Http Request fail, statusCode(404) for url : http://h:1/run"},
		{"xxl-job remoting error(dial tcp 127.0.0.1:9: connect: connection refused), for url : http://127.0.0.1:9/run", "Http Request Error (Connection refused). for url : http://127.0.0.1:9/run"},
		{"xxl-job remoting error(read tcp 127.0.0.1:5->127.0.0.1:9: read: connection reset by peer), for url : http://h:1/run", "Http Request Error (Connection reset). for url : http://h:1/run"},
		{"xxl-job remoting error(dial tcp: lookup nohost: no such host), for url : http://nohost/run", "Http Request Error (dial tcp: lookup nohost: no such host). for url : http://nohost/run"},
		{"xxl-job remoting (url=http://h:1/run) response content invalid(x).", ""},
		{"job handler [x] not found.", ""},
		{"xxl-job remoting error(no url part", ""},
	} {
		got, ok := exception342(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("exception342(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
