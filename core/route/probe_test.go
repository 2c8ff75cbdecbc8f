package route

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// fakeProber answers per address; unknown addresses answer {"code":200}.
type fakeProber struct {
	mu      sync.Mutex
	replies map[string]Reply
	errs    map[string]error
	calls   []string // "beat <addr>" or "idleBeat <addr> <jobID>"
}

func (p *fakeProber) answer(address string) (Reply, error) {
	if err, ok := p.errs[address]; ok {
		return Reply{}, err
	}
	if r, ok := p.replies[address]; ok {
		return r, nil
	}
	return Reply{Code: CodeSuccess}, nil
}

func (p *fakeProber) Beat(_ context.Context, address string) (Reply, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, "beat "+address)
	return p.answer(address)
}

func (p *fakeProber) IdleBeat(_ context.Context, address string, jobID int) (Reply, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, fmt.Sprintf("idleBeat %s %d", address, jobID))
	return p.answer(address)
}

func strp(s string) *string { return &s }

// routing.md §1.6 (FAILOVER) and §1.7 (BUSYOVER): exact report texts.
func TestProbeOver(t *testing.T) {
	const (
		a = "http://10.0.0.1:9999/"
		b = "http://10.0.0.2:9999/"
		c = "http://10.0.0.3:9999/"
	)
	refused := Reply{Code: CodeFail, Msg: strp("xxl-job remoting error(Connection refused), for url : " + a + "beat")}
	busy := Reply{Code: CodeFail, Msg: strp("job thread is running or has trigger queue.")}
	tests := []struct {
		desc      string
		strategy  string
		lang      string
		addrs     []string
		replies   map[string]Reply
		errs      map[string]error
		want      Result
		wantCalls []string
	}{
		{
			desc: "failover success on 2nd address, zh_CN", strategy: NameFailover, lang: "zh_CN",
			addrs:   []string{a, b, c},
			replies: map[string]Reply{a: refused},
			want: Result{Code: CodeSuccess, Address: b, Msg: "心跳检测：<br>address：" + a + "<br>code：500<br>msg：xxl-job remoting error(Connection refused), for url : " + a + "beat" +
				"<br><br>心跳检测：<br>address：" + b + "<br>code：200<br>msg：null"},
			wantCalls: []string{"beat " + a, "beat " + b},
		},
		{
			desc: "failover first answers, en", strategy: NameFailover, lang: "en",
			addrs:     []string{a, b},
			want:      Result{Code: CodeSuccess, Address: a, Msg: "Heartbeats：<br>address：" + a + "<br>code：200<br>msg：null"},
			wantCalls: []string{"beat " + a},
		},
		{
			desc: "failover all failing, en: error, blank item, non-200 code", strategy: NameFailover, lang: "en",
			addrs:   []string{a, " ", c},
			errs:    map[string]error{a: errors.New("dial tcp: i/o timeout")},
			replies: map[string]Reply{c: {Code: 404, Msg: strp("")}},
			want: Result{Code: CodeFail, Msg: "Heartbeats：<br>address：" + a + "<br>code：500<br>msg：dial tcp: i/o timeout" +
				"<br><br>Heartbeats：<br>address： <br>code：500<br>msg：java.lang.NullPointerException" +
				"<br><br>Heartbeats：<br>address：" + c + "<br>code：404<br>msg："},
			// The blank item is never sent to the prober.
			wantCalls: []string{"beat " + a, "beat " + c},
		},
		{
			desc: "busyover success on 2nd address, en", strategy: NameBusyover, lang: "en",
			addrs:   []string{a, b},
			replies: map[string]Reply{a: busy},
			want: Result{Code: CodeSuccess, Address: b, Msg: "Idle check：<br>address：" + a + "<br>code：500<br>msg：job thread is running or has trigger queue." +
				"<br><br>Idle check：<br>address：" + b + "<br>code：200<br>msg：null"},
			wantCalls: []string{"idleBeat " + a + " 42", "idleBeat " + b + " 42"},
		},
		{
			desc: "busyover all busy, zh_CN", strategy: NameBusyover, lang: "zh_CN",
			addrs:   []string{a, b},
			replies: map[string]Reply{a: busy, b: busy},
			want: Result{Code: CodeFail, Msg: "空闲检测：<br>address：" + a + "<br>code：500<br>msg：job thread is running or has trigger queue." +
				"<br><br>空闲检测：<br>address：" + b + "<br>code：500<br>msg：job thread is running or has trigger queue."},
			wantCalls: []string{"idleBeat " + a + " 42", "idleBeat " + b + " 42"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			p := &fakeProber{replies: tc.replies, errs: tc.errs}
			r := NewRegistry(Config{Prober: p, Text: bundleText(t, tc.lang)})
			got := mustLookup(t, r, tc.strategy).Route(t.Context(), Request{JobID: 42}, tc.addrs)
			if got != tc.want {
				t.Errorf("Route =\n %+v\nwant\n %+v", got, tc.want)
			}
			if !slices.Equal(p.calls, tc.wantCalls) {
				t.Errorf("calls = %q, want %q", p.calls, tc.wantCalls)
			}
		})
	}
}

// Without a prober every address is reported failed instead of panicking.
func TestProbeOverNoProber(t *testing.T) {
	r := NewRegistry(Config{Text: bundleText(t, "en")})
	got := mustLookup(t, r, NameFailover).Route(t.Context(), Request{JobID: 1}, []string{"x"})
	want := Result{Code: CodeFail, Msg: "Heartbeats：<br>address：x<br>code：500<br>msg：route: no executor prober configured"}
	if got != want {
		t.Errorf("Route = %+v, want %+v", got, want)
	}
}
