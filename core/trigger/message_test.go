package trigger

import (
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
)

// TestMessageRender checks trigger_msg byte for byte against scheduler.md §6
// (the two worked examples are copied verbatim from the spec; the others
// follow its template and the bundle texts of §12 and routing.md).
func TestMessageRender(t *testing.T) {
	list1 := []string{"http://10.0.0.5:9999/"}
	list3 := []string{"http://10.0.0.5:9997/", "http://10.0.0.5:9998/", "http://10.0.0.5:9999/"}
	refused := "xxl-job remoting error(Connection refused), for url : http://10.0.0.5:9999/run"
	beatFail := "xxl-job remoting error(Connection refused), for url : http://10.0.0.5:9997/beat"
	base := message{Type: TypeCron, AdminAddress: "10.0.0.2", Registry: list1, Timeout: 0, FailRetry: 0}
	ok := &runOutcome{Address: "http://10.0.0.5:9999/", Code: 200}

	tests := []struct {
		name string
		msg  func(t Texts) message
		en   string
		zh   string
	}{
		{
			name: "success",
			msg: func(t Texts) message {
				m := base
				m.RouteTitle, m.BlockTitle, m.Run = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION"), ok
				return m
			},
			en: "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[http://10.0.0.5:9999/]<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：http://10.0.0.5:9999/<br>code：200<br>msg：null",
			zh: "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[http://10.0.0.5:9999/]<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://10.0.0.5:9999/<br>code：200<br>msg：null",
		},
		{
			name: "run failure",
			msg: func(t Texts) message {
				m := base
				m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
				m.Run = &runOutcome{Address: "http://10.0.0.5:9999/", Code: 500, Msg: &refused}
				return m
			},
			en: "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[http://10.0.0.5:9999/]<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：http://10.0.0.5:9999/<br>code：500<br>msg：xxl-job remoting error(Connection refused), for url : http://10.0.0.5:9999/run",
			zh: "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[http://10.0.0.5:9999/]<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://10.0.0.5:9999/<br>code：500<br>msg：xxl-job remoting error(Connection refused), for url : http://10.0.0.5:9999/run",
		},
		{
			name: "empty address list",
			msg: func(t Texts) message {
				m := base
				m.Registry = nil
				m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
				m.RouteMsg = t.Text("jobconf_trigger_address_empty")
				return m
			},
			en: "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：null<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Fail：registry address is empty<br><br>",
			zh: "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：null<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>调度失败：执行器地址为空<br><br>",
		},
		{
			name: "broadcast shard 1 of 3",
			msg: func(t Texts) message {
				m := base
				m.Registry = list3
				m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_shard"), t.Text("jobconf_block_SERIAL_EXECUTION")
				m.Shard = &shard{index: 1, total: 3}
				m.Run = &runOutcome{Address: "http://10.0.0.5:9998/", Code: 200}
				return m
			},
			en: "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[http://10.0.0.5:9997/, http://10.0.0.5:9998/, http://10.0.0.5:9999/]<br>Route Strategy：Sharding Broadcast(1/3)<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null",
			zh: "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[http://10.0.0.5:9997/, http://10.0.0.5:9998/, http://10.0.0.5:9999/]<br>路由策略：分片广播(1/3)<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null",
		},
		{
			name: "failover probe report",
			msg: func(t Texts) message {
				m := base
				m.Registry = list3
				m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_failover"), t.Text("jobconf_block_SERIAL_EXECUTION")
				beat := t.Text("jobconf_beat")
				m.RouteMsg = beat + "：<br>address：http://10.0.0.5:9997/<br>code：500<br>msg：" + beatFail +
					"<br><br>" + beat + "：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null"
				m.Run = &runOutcome{Address: "http://10.0.0.5:9998/", Code: 200}
				return m
			},
			en: "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[http://10.0.0.5:9997/, http://10.0.0.5:9998/, http://10.0.0.5:9999/]<br>Route Strategy：Failover<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Heartbeats：<br>address：http://10.0.0.5:9997/<br>code：500<br>msg：xxl-job remoting error(Connection refused), for url : http://10.0.0.5:9997/beat<br><br>Heartbeats：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null<br><br>Trigger Job：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null",
			zh: "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[http://10.0.0.5:9997/, http://10.0.0.5:9998/, http://10.0.0.5:9999/]<br>路由策略：故障转移<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>心跳检测：<br>address：http://10.0.0.5:9997/<br>code：500<br>msg：xxl-job remoting error(Connection refused), for url : http://10.0.0.5:9997/beat<br><br>心跳检测：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null<br><br>触发调度：<br>address：http://10.0.0.5:9998/<br>code：200<br>msg：null",
		},
		{
			name: "retry with count and timeout",
			msg: func(t Texts) message {
				m := base
				m.Type, m.Timeout, m.FailRetry = TypeRetry, 30, 2
				m.RouteTitle, m.BlockTitle, m.Run = t.Text("jobconf_route_first"), t.Text("jobconf_block_DISCARD_LATER"), ok
				return m
			},
			en: "Job trigger type：Fail retry trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[http://10.0.0.5:9999/]<br>Route Strategy：First<br>Block Strategy：Discard Later<br>Job timeout period：30<br>Fail Retry Count：2<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：http://10.0.0.5:9999/<br>code：200<br>msg：null",
			zh: "任务触发类型：失败重试触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[http://10.0.0.5:9999/]<br>路由策略：第一个<br>阻塞处理策略：丢弃后续调度<br>任务超时时间：30<br>失败重试次数：2<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://10.0.0.5:9999/<br>code：200<br>msg：null",
		},
		{
			name: "manual address override",
			msg: func(t Texts) message {
				m := base
				m.Type, m.AddressType = TypeManual, 1
				m.Registry = []string{"http://10.0.0.7:9999/", "http://10.0.0.8:9999/"}
				m.RouteTitle, m.BlockTitle = t.Text("jobconf_route_first"), t.Text("jobconf_block_SERIAL_EXECUTION")
				m.Run = &runOutcome{Address: "http://10.0.0.7:9999/", Code: 200}
				return m
			},
			en: "Job trigger type：Manual trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Manual registration<br>Execotor-Registry Address：[http://10.0.0.7:9999/, http://10.0.0.8:9999/]<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：http://10.0.0.7:9999/<br>code：200<br>msg：null",
			zh: "任务触发类型：手动触发<br>调度机器：10.0.0.2<br>执行器-注册方式：手动录入<br>执行器-地址列表：[http://10.0.0.7:9999/, http://10.0.0.8:9999/]<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://10.0.0.7:9999/<br>code：200<br>msg：null",
		},
	}
	for _, lang := range []string{"en", "zh_CN"} {
		texts := i18n.Load(lang)
		for _, tc := range tests {
			t.Run(lang+"/"+tc.name, func(t *testing.T) {
				want := tc.zh
				if lang == "en" {
					want = tc.en
				}
				if got := tc.msg(texts).render(texts); got != want {
					t.Errorf("trigger_msg mismatch\n got: %s\nwant: %s", got, want)
				}
			})
		}
	}
}

// TestListText checks Java's List.toString forms used for the registry
// address (scheduler.md §6).
func TestListText(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, "null"},
		{[]string{}, "[]"},
		{[]string{"a"}, "[a]"},
		{[]string{"a", "", "b"}, "[a, , b]"},
	}
	for _, tc := range tests {
		if got := listText(tc.in); got != tc.want {
			t.Errorf("listText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
