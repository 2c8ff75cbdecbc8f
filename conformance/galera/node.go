package galera

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Node is one mariadbd of the cluster, on its own data directory and ports.
type Node struct {
	Name string
	// Port is the SQL port on 127.0.0.1.
	Port int
	// gcomm is the group communication port, ist the incremental state
	// transfer receiver, sst the state snapshot receiver.
	gcomm, ist, sst int

	c    *Cluster
	dir  string // data directory
	sock string

	cmd  *exec.Cmd
	done chan struct{}
	err  error
	runs int
}

// args are the daemon's settings; extra (bootstrap, start position,
// recovery) go last.
func (n *Node) args(extra ...string) []string {
	peers := make([]string, len(n.c.nodes))
	for i, p := range n.c.nodes {
		peers[i] = "127.0.0.1:" + strconv.Itoa(p.gcomm)
	}
	// Short evs timeouts evict a killed node in 2–4 s instead of 15 s, so
	// the survivors' commits are held up about as long as a ring holds
	// fires; IST is received on its own port.
	opts := strings.Join([]string{
		"base_port=" + strconv.Itoa(n.gcomm),
		"ist.recv_addr=127.0.0.1:" + strconv.Itoa(n.ist),
		"evs.keepalive_period=PT0.5S", "evs.suspect_timeout=PT2S",
		"evs.inactive_timeout=PT4S", "evs.install_timeout=PT4S",
		"gcache.size=64M",
	}, ";")
	a := []string{"--no-defaults", "--datadir=" + n.dir, "--socket=" + n.sock,
		"--pid-file=" + filepath.Join(n.c.base, n.Name+".pid"),
		"--port=" + strconv.Itoa(n.Port), "--bind-address=127.0.0.1", "--skip-name-resolve",
		"--log-error=" + filepath.Join(n.c.base, n.Name+".err"),
		"--innodb-buffer-pool-size=64M", "--innodb-log-file-size=16M", "--max-connections=300",
		// Durability comes from replication here; flushing each commit
		// to disk would only slow a loaded CI machine down.
		"--innodb-flush-log-at-trx-commit=2",
		"--wsrep-on=ON", "--wsrep-provider=" + n.c.bin.Provider, "--wsrep-cluster-name=xxl-galera-test",
		"--wsrep-cluster-address=gcomm://" + strings.Join(peers, ","),
		"--wsrep-node-address=127.0.0.1:" + strconv.Itoa(n.gcomm), "--wsrep-node-name=" + n.Name,
		"--wsrep-provider-options=" + opts,
		"--wsrep-sst-method=rsync", "--wsrep-sst-receive-address=127.0.0.1:" + strconv.Itoa(n.sst),
		"--binlog-format=ROW", "--default-storage-engine=InnoDB", "--innodb-autoinc-lock-mode=2",
	}
	if n.c.runAs != "" {
		a = append(a, "--user="+n.c.runAs)
	}
	return append(a, extra...)
}

// start runs the daemon in the background.
func (n *Node) start(extra ...string) error {
	n.runs++
	out, err := os.Create(filepath.Join(n.c.base, fmt.Sprintf("%s.out.%d", n.Name, n.runs)))
	if err != nil {
		return err
	}
	cmd := exec.Command(n.c.bin.Daemon, n.args(extra...)...)
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group: a state transfer script it runs is ended with
	// it when the test is interrupted.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		out.Close()
		return fmt.Errorf("start %s: %w", n.Name, err)
	}
	n.cmd, n.done, n.err = cmd, make(chan struct{}), nil
	go func(done chan struct{}) {
		n.err = cmd.Wait()
		out.Close()
		close(done)
	}(n.done)
	return nil
}

// running tells whether the daemon process is up.
func (n *Node) running() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL to the daemon (and its group) and waits for it.
func (n *Node) kill() {
	if !n.running() {
		return
	}
	_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	<-n.done
}

// stop shuts the daemon down cleanly (SIGTERM), killing it after limit.
func (n *Node) stop(limit time.Duration) error {
	if !n.running() {
		return nil
	}
	_ = n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.done:
		return nil
	case <-time.After(limit):
		n.kill()
		return fmt.Errorf("%s did not stop within %s; killed", n.Name, limit)
	}
}

// root opens a root connection over the node's socket.
func (n *Node) root() (*sql.DB, error) {
	db, err := sql.Open("mysql", "root@unix("+n.sock+")/")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// waitSynced waits until the node answers, is Synced and sees size members.
func (n *Node) waitSynced(ctx context.Context, size int) error {
	db, err := n.root()
	if err != nil {
		return err
	}
	defer db.Close()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		state, members, err := status(ctx, db)
		switch {
		case err != nil:
			last = err
		case state == "Synced" && members == size:
			return nil
		default:
			last = fmt.Errorf("state %s, cluster size %d", state, members)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not synced in a cluster of %d: %v (see %s)", n.Name, size, last, n.errorLog())
		case <-n.done:
			return fmt.Errorf("%s exited while joining: %v (see %s)", n.Name, n.err, n.errorLog())
		case <-tick.C:
		}
	}
}

func status(ctx context.Context, db *sql.DB) (state string, size int, err error) {
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	rows, err := db.QueryContext(qctx, "SHOW STATUS WHERE Variable_name IN ('wsrep_local_state_comment', 'wsrep_cluster_size')")
	if err != nil {
		return "", 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return "", 0, err
		}
		if k == "wsrep_cluster_size" {
			size, _ = strconv.Atoi(v)
		} else {
			state = v
		}
	}
	return state, size, rows.Err()
}

func (n *Node) errorLog() string { return filepath.Join(n.c.base, n.Name+".err") }

var recovered = regexp.MustCompile(`WSREP: Recovered position: ([0-9a-f-]{36}:-?[0-9]+)`)

// recoverPosition runs the daemon with --wsrep-recover, which reads the
// last committed position from InnoDB after a crash and exits.
func (n *Node) recoverPosition(ctx context.Context) (string, error) {
	logFile := filepath.Join(n.c.base, n.Name+".recover.err")
	_ = os.Remove(logFile)
	args := append(n.args("--wsrep-recover"), "--log-error="+logFile)
	out, err := exec.CommandContext(ctx, n.c.bin.Daemon, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --wsrep-recover: %w\n%s", n.Name, err, out)
	}
	text, _ := os.ReadFile(logFile)
	m := recovered.FindSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("%s --wsrep-recover: no recovered position in %s", n.Name, logFile)
	}
	return string(m[1]), nil
}
