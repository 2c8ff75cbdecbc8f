package durable

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

// readyLimit bounds an admin's start.
const readyLimit = 60 * time.Second

// contextPath is where every admin serves, on either generation.
const contextPath = "/xxl-job-admin"

// fleet is the admin processes of a run: slot i runs against urls[i], each
// start with an access token of its own. The executor calls back the
// admins alive.
type fleet struct {
	bin        string
	urls       []string
	user, pass string
	extra      []string
	dir        string
	exec       *fakeexec.Executor

	mu     sync.Mutex
	admins []*cluster.Admin
	tokens []string
	starts int
	logs   []string
}

func newFleet(bin string, urls []string, user, pass, dir string, exec *fakeexec.Executor, extra ...string) *fleet {
	return &fleet{bin: bin, urls: urls, user: user, pass: pass, extra: extra, dir: dir, exec: exec,
		admins: make([]*cluster.Admin, len(urls)), tokens: make([]string, len(urls))}
}

// start runs slot i.
func (f *fleet) start(i int) error {
	f.mu.Lock()
	f.starts++
	token := "admin" + strconv.Itoa(i) + "-" + strconv.Itoa(f.starts)
	name := filepath.Join(f.dir, token+".log")
	f.logs = append(f.logs, name)
	f.mu.Unlock()
	out, err := os.Create(name)
	if err != nil {
		return err
	}
	defer out.Close() // the process holds its own descriptor
	args := append(cluster.AdminArgs(f.urls[i], f.user, f.pass, token), "--server.servlet.context-path="+contextPath)
	a, err := cluster.StartAdmin(f.bin, append(args, f.extra...), out, readyLimit)
	if err != nil {
		b, _ := os.ReadFile(name)
		return fmt.Errorf("%w\n%s", err, tail(b))
	}
	f.mu.Lock()
	f.admins[i], f.tokens[i] = a, token
	f.mu.Unlock()
	f.publish()
	return nil
}

// kill SIGKILLs slot i.
func (f *fleet) kill(i int) {
	f.mu.Lock()
	a := f.admins[i]
	f.admins[i], f.tokens[i] = nil, ""
	f.mu.Unlock()
	f.publish()
	if a != nil {
		a.Kill()
	}
}

// publish hands the executor the admins alive, for its callbacks.
func (f *fleet) publish() {
	f.mu.Lock()
	var eps []fakeexec.Endpoint
	for i, a := range f.admins {
		if a != nil {
			eps = append(eps, fakeexec.Endpoint{URL: "http://127.0.0.1:" + strconv.Itoa(a.Port) + contextPath, Token: f.tokens[i]})
		}
	}
	f.mu.Unlock()
	f.exec.SetAdmins(eps)
}

// killAll ends every admin (the end of a run, or a failed one).
func (f *fleet) killAll() {
	for i := range f.admins {
		f.kill(i)
	}
}

// logFiles lists every admin start's log file.
func (f *fleet) logFiles() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.logs...)
}

func tail(b []byte) string {
	if len(b) > 20000 {
		b = b[len(b)-20000:]
	}
	return string(b)
}
