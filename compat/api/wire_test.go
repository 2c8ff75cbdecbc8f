package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Request bodies must equal the Java admin's bytes: member order, omitted
// nulls (recording admin_client_probe, its findings list the bodies).
func TestRequestEncodingMatchesJavaAdmin(t *testing.T) {
	tests := []struct {
		name  string
		param any
		want  string
	}{
		{
			name: "run, every member",
			param: TriggerParam{
				JobID: 401, ExecutorHandler: ptr("demoJobHandler"), ExecutorParams: ptr("from-admin-client"),
				ExecutorBlockStrategy: ptr("SERIAL_EXECUTION"), LogID: 1051, LogDateTime: 1795328526855,
				GlueType: "BEAN", GlueSource: ptr(""), GlueUpdatetime: 1795328526855, BroadcastTotal: 1,
			},
			want: `{"jobId":401,"executorHandler":"demoJobHandler","executorParams":"from-admin-client","executorBlockStrategy":"SERIAL_EXECUTION","executorTimeout":0,"logId":1051,"logDateTime":1795328526855,"glueType":"BEAN","glueSource":"","glueUpdatetime":1795328526855,"broadcastIndex":0,"broadcastTotal":1}`,
		},
		{
			name: "sparse run leaves out null members",
			param: TriggerParam{
				JobID: 402, ExecutorHandler: ptr("demoJobHandler"), LogID: 1052, LogDateTime: 1795328526855, GlueType: "BEAN",
			},
			want: `{"jobId":402,"executorHandler":"demoJobHandler","executorTimeout":0,"logId":1052,"logDateTime":1795328526855,"glueType":"BEAN","glueUpdatetime":0,"broadcastIndex":0,"broadcastTotal":0}`,
		},
		{name: "beat", param: "", want: `""`},
		{name: "idleBeat", param: IdleBeatParam{JobID: 401}, want: `{"jobId":401}`},
		{name: "kill", param: KillParam{JobID: 401}, want: `{"jobId":401}`},
		{name: "log", param: LogParam{LogDateTim: 1795328526855, LogID: 1051, FromLineNum: 1}, want: `{"logDateTim":1795328526855,"logId":1051,"fromLineNum":1}`},
		{
			// Gson's HTML-safe escaping, as in run_success_with_msg_and_escaping's
			// callback body (written by the executor's Gson).
			name:  "escaping",
			param: TriggerParam{ExecutorParams: ptr("中文 <b>&'\"= \\ tab\tend"), GlueType: "BEAN"},
			want:  `{"jobId":0,"executorParams":"中文 \u003cb\u003e\u0026\u0027\"\u003d \\ tab\tend","executorTimeout":0,"logId":0,"logDateTime":0,"glueType":"BEAN","glueUpdatetime":0,"broadcastIndex":0,"broadcastTotal":0}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gsonJSON(tt.param)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// Decoding the parameter types: recorded bodies plus lenient forms.
func TestDecodeParams(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		into    any
		want    any
		wantErr bool
	}{
		{
			name: "callback with escapes (run_success_with_msg_and_escaping)",
			body: `{"logId":1008,"logDateTim":1795328428748,"handleCode":200,"handleMsg":"done: 中文 \u003cb\u003e\u0026\u0027\"\u003d \\ tab\tend"}`,
			into: &HandleCallbackParam{},
			want: &HandleCallbackParam{LogID: 1008, LogDateTim: 1795328428748, HandleCode: 200, HandleMsg: ptr("done: 中文 <b>&'\"= \\ tab\tend")},
		},
		{
			name: "callback without handleMsg (run_minimal_fields)",
			body: `{"logId":1004,"logDateTim":0,"handleCode":200}`,
			into: &HandleCallbackParam{},
			want: &HandleCallbackParam{LogID: 1004, HandleCode: 200},
		},
		{
			name: "run minimal with unknown member (run_minimal_fields)",
			body: `{"jobId":7010,"executorHandler":"demoJobHandler","glueType":"BEAN","logId":1004,"unknownExtra":"ignored"}`,
			into: &TriggerParam{},
			want: &TriggerParam{JobID: 7010, ExecutorHandler: ptr("demoJobHandler"), GlueType: "BEAN", LogID: 1004},
		},
		{
			name: "run with explicit null (block_strategy_unknown)",
			body: `{"jobId":304,"executorBlockStrategy":null,"glueType":null}`,
			into: &TriggerParam{},
			want: &TriggerParam{JobID: 304},
		},
		{name: "idleBeat string number", body: `{"jobId":"7004"}`, into: &IdleBeatParam{}, want: &IdleBeatParam{JobID: 7004}},
		{name: "idleBeat integral float", body: `{"jobId":7005.0}`, into: &IdleBeatParam{}, want: &IdleBeatParam{JobID: 7005}},
		{name: "idleBeat fraction", body: `{"jobId":7006.5}`, into: &IdleBeatParam{}, wantErr: true},
		{name: "kill missing jobId", body: `{}`, into: &KillParam{}, want: &KillParam{}},
		{name: "run jobId abc", body: `{"jobId":"abc"}`, into: &TriggerParam{}, wantErr: true},
		{name: "run array", body: `[]`, into: &TriggerParam{}, wantErr: true},
		{name: "log", body: `{"logDateTim":1795328504105,"logId":1040,"fromLineNum":-3}`, into: &LogParam{}, want: &LogParam{LogDateTim: 1795328504105, LogID: 1040, FromLineNum: -3}},
		{
			name: "registry",
			body: `{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"http://127.0.0.1:19999/"}`,
			into: &RegistryParam{},
			want: &RegistryParam{RegistryGroup: "EXECUTOR", RegistryKey: "xxl-job-executor-sample", RegistryValue: "http://127.0.0.1:19999/"},
		},
		{name: "registry number as string", body: `{"registryKey":12}`, into: &RegistryParam{}, want: &RegistryParam{RegistryKey: "12"}},
		{name: "registry object member", body: `{"registryKey":{}}`, into: &RegistryParam{}, wantErr: true},
		{
			name: "log result missing file (log_paging)",
			body: `{"fromLineNum":1,"toLineNum":0,"logContent":"readLog fail, logFile not exists","isEnd":true}`,
			into: &LogResult{},
			want: &LogResult{FromLineNum: 1, LogContent: "readLog fail, logFile not exists", IsEnd: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := json.Unmarshal([]byte(tt.body), tt.into)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(tt.into, tt.want) {
				t.Errorf("got %+v, want %+v", tt.into, tt.want)
			}
		})
	}
}

// §2.2 notes and §2.5: empty, null and [] callback bodies are an empty
// list; a null element is skipped (documented divergence).
func TestDecodeCallbackParams(t *testing.T) {
	tests := []struct {
		body    string
		wantIDs []int64
		wantErr bool
	}{
		{body: ``},
		{body: `null`},
		{body: `[]`},
		{body: `[null]`},
		{body: `[{"logId":1},null,{"logId":2}]`, wantIDs: []int64{1, 2}},
		{body: `{"logId":1}`, wantErr: true},
		{body: `[1]`, wantErr: true},
		{body: `[{"logId":1}] x`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := DecodeCallbackParams([]byte(tt.body))
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: err = %v, wantErr %v", tt.body, err, tt.wantErr)
			continue
		}
		var ids []int64
		for _, p := range got {
			ids = append(ids, p.LogID)
		}
		if !reflect.DeepEqual(ids, tt.wantIDs) {
			t.Errorf("%q: ids %v, want %v", tt.body, ids, tt.wantIDs)
		}
	}
}

// §2.2 step 5 and notes: null/empty body is an error; blank members are
// reported by Valid, not by the decoder.
func TestDecodeRegistryParam(t *testing.T) {
	for _, body := range []string{``, `null`, ` `} {
		if _, err := DecodeRegistryParam([]byte(body)); err == nil {
			t.Errorf("%q: want error", body)
		}
	}
	p, err := DecodeRegistryParam([]byte(`{"registryGroup":"EXECUTOR","registryKey":"k","registryValue":" \u2003"}`))
	if err != nil || p.Valid() {
		t.Errorf("whitespace value: %+v, err %v; want decoded and invalid", p, err)
	}
}

// §1.1: the admin's own answers keep null members (Jackson).
func TestReturnTMarshalsJacksonStyle(t *testing.T) {
	b, err := json.Marshal(Success[string]())
	if err != nil || string(b) != successBody {
		t.Errorf("Success = %s, %v", b, err)
	}
	b, _ = json.Marshal(Fail[string]("x"))
	if string(b) != `{"code":500,"msg":"x","content":null}` {
		t.Errorf("Fail = %s", b)
	}
	if got := jacksonString("a<br/>b\n\"c\""); got != `"a<br/>b\n\"c\""` {
		t.Errorf("jacksonString = %s", got)
	}
}

// §3.1, §5.2: what executors of each generation answer.
func TestDecodeReturnTString(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    ReturnT[string]
		wantErr bool
	}{
		{name: "2.4 success", body: `{"code":200}`, want: ReturnT[string]{Code: 200}},
		{name: "2.4 failure", body: `{"code":500,"msg":"job thread is running or has trigger queue."}`, want: Fail[string]("job thread is running or has trigger queue.")},
		{name: "gson escapes", body: `{"code":500,"msg":"\u003e\u003e a\u003db"}`, want: Fail[string](">> a=b")},
		{name: "jackson nulls", body: `{"code":200,"msg":null,"content":null}`, want: ReturnT[string]{Code: 200}},
		{name: "3.2 Success msg", body: `{"code":200,"msg":"Success"}`, want: ReturnT[string]{Code: 200, Msg: ptr("Success")}},
		{name: "3.3 data", body: `{"code":200,"msg":"Success","data":"job thread already killed."}`, want: ReturnT[string]{Code: 200, Msg: ptr("Success"), Content: ptr("job thread already killed.")}},
		{name: "content wins over data", body: `{"code":200,"content":"c","data":"d"}`, want: ReturnT[string]{Code: 200, Content: ptr("c")}},
		{name: "null content falls back", body: `{"code":200,"content":null,"data":"d"}`, want: ReturnT[string]{Code: 200, Content: ptr("d")}},
		{name: "empty object", body: `{}`, want: ReturnT[string]{}},
		{name: "code as string", body: `{"code":"200"}`, want: ReturnT[string]{Code: 200}},
		{name: "object content for String", body: `{"code":200,"content":{}}`, wantErr: true},
		{name: "empty", body: ``, wantErr: true},
		{name: "whitespace", body: "  ", wantErr: true},
		{name: "null", body: `null`, wantErr: true},
		{name: "html", body: `<html>`, wantErr: true},
		{name: "array", body: `[]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeReturnT[string]([]byte(tt.body))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeReturnTLog(t *testing.T) {
	want := LogResult{FromLineNum: 16, ToLineNum: 15, LogContent: "", IsEnd: false}
	for _, body := range []string{
		`{"code":200,"content":{"fromLineNum":16,"toLineNum":15,"logContent":"","isEnd":false}}`,              // log_paging
		`{"code":200,"msg":"Success","data":{"fromLineNum":16,"toLineNum":15,"logContent":"","isEnd":false}}`, // 3.3+
	} {
		got, err := DecodeReturnT[LogResult]([]byte(body))
		if err != nil || got.Content == nil || *got.Content != want {
			t.Errorf("%s: got %+v, %v", body, got, err)
		}
	}
}

// §3.6 trap: the browser reads content.end.
func TestConsoleLogUsesEnd(t *testing.T) {
	r := ReturnT[LogResult]{Code: 200, Content: &LogResult{FromLineNum: 1, ToLineNum: 0, LogContent: "x", IsEnd: true}}
	b, err := json.Marshal(ConsoleLog(r))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":200,"msg":null,"content":{"fromLineNum":1,"toLineNum":0,"logContent":"x","end":true}}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	if b, _ := json.Marshal(ConsoleLog(Fail[LogResult]("gone"))); !strings.Contains(string(b), `"content":null`) {
		t.Errorf("failure: %s", b)
	}
}

func TestMsgText(t *testing.T) {
	if got := Success[string]().MsgText(); got != "null" {
		t.Errorf("nil msg = %q", got)
	}
	if got := Fail[string]("x").MsgText(); got != "x" {
		t.Errorf("msg = %q", got)
	}
}
