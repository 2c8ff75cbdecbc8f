package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/minexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// nopStore accepts everything without keeping it.
type nopStore struct{}

func (nopStore) Registry(context.Context, RegistryParam) error         { return nil }
func (nopStore) RegistryRemove(context.Context, RegistryParam) error   { return nil }
func (nopStore) Callback(context.Context, []HandleCallbackParam) error { return nil }

func benchHandler(b *testing.B, uri, body string) {
	h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: nopStore{}, Callbacks: nopStore{}, Log: zerolog.Nop()})
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/api/"+uri, strings.NewReader(body))
		req.Header.Set(TokenHeader, testToken)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Body.String() != successBody {
			b.Fatalf("got %s", rec.Body.String())
		}
	}
}

func BenchmarkHandlerRegistry(b *testing.B) { benchHandler(b, "registry", regBody) }

func BenchmarkHandlerCallback(b *testing.B) {
	benchHandler(b, "callback", `[{"logId":1046,"logDateTim":1795328512775,"handleCode":500,"handleMsg":"boom"},{"logId":1047,"logDateTim":1795328512881,"handleCode":200},{"logId":1045,"logDateTim":1795328512670,"handleCode":200}]`)
}

func BenchmarkClientRun(b *testing.B) {
	srv := httptest.NewServer(&fakeExecutor{status: 200, body: `{"code":200}`})
	defer srv.Close()
	c := NewClient(ClientConfig{AccessToken: testToken})
	defer c.CloseIdleConnections()
	p := TriggerParam{
		JobID: 401, ExecutorHandler: ptr("demoJobHandler"), ExecutorParams: ptr("from-admin-client"),
		ExecutorBlockStrategy: ptr("SERIAL_EXECUTION"), LogID: 1051, LogDateTime: 1795328526855,
		GlueType: "BEAN", GlueSource: ptr(""), GlueUpdatetime: 1795328526855, BroadcastTotal: 1,
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := c.Run(ctx, srv.URL, p); !r.OK() {
			b.Fatalf("got %+v", r)
		}
	}
}

// BenchmarkClientRunDirect is one /run through the direct path against a
// minimal executor on loopback (a fixed answer, no allocation per request),
// so allocs/op and B/op are the client's own: encoding the request,
// writing it, reading and decoding the answer.
func BenchmarkClientRunDirect(b *testing.B) {
	addr := minexec.Start(b, minexec.Success)
	c := NewClient(ClientConfig{AccessToken: testToken})
	defer c.CloseIdleConnections()
	p := benchTriggerParam()
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		if r := c.Run(ctx, addr, p); !r.OK() {
			b.Fatalf("got %+v", r)
		}
	}
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// processCPU is this process's CPU time so far (10 ms resolution: run
// enough iterations), 0 where /proc is not readable. On a loaded box the
// wall time of a call is mostly the wait for the other side's wake-up.
func processCPU() time.Duration {
	d, _ := procstat.CPUTime(os.Getpid())
	return d
}

// BenchmarkEncodeTriggerParam is the /run body alone, encoded as Run does
// (into a reused buffer).
func BenchmarkEncodeTriggerParam(b *testing.B) {
	p := benchTriggerParam()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = p.appendGson(buf[:0])
	}
}

func benchTriggerParam() TriggerParam {
	return TriggerParam{
		JobID: 401, ExecutorHandler: ptr("demoJobHandler"), ExecutorParams: ptr("from-admin-client"),
		ExecutorBlockStrategy: ptr("SERIAL_EXECUTION"), LogID: 1051, LogDateTime: 1795328526855,
		GlueType: "BEAN", GlueSource: ptr(""), GlueUpdatetime: 1795328526855, BroadcastTotal: 1,
	}
}
