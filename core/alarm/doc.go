// Package alarm sends the fail monitor's alarms (scheduler.md §8) over the
// configured channels: the Java admin's e-mail (config.md §4) and, new in
// this port, chat/HTTP webhooks (generic JSON, DingTalk, Feishu/Lark, WeCom).
//
// Every channel is bounded by a timeout, because the fail monitor waits for
// the result before it records alarm_status: a hanging SMTP server must not
// stall retries and alarms of every other failed job.
package alarm
