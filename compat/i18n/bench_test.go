package i18n

import "testing"

func BenchmarkText(b *testing.B) {
	bundle := Load("zh_CN")
	for b.Loop() {
		_ = bundle.Text("jobconf_trigger_exe_regaddress")
	}
}

func BenchmarkFormat(b *testing.B) {
	bundle := Load("en")
	for b.Loop() {
		_ = bundle.Format("jobconf_callback_child_msg1", 1, 1234, "3", "success", nil)
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		_ = Load("zh_CN")
	}
}
