package galera

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Binaries are the programs a cluster needs.
type Binaries struct {
	Daemon    string // mariadbd
	InstallDB string // mariadb-install-db
	Provider  string // libgalera_smm.so
}

// EnvProvider overrides where libgalera_smm.so is looked for.
const EnvProvider = "XXL_TEST_GALERA_PROVIDER"

// FindBinaries looks in the Debian locations first, then PATH.
func FindBinaries() (Binaries, error) {
	b := Binaries{
		Daemon:    find([]string{"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"}, "mariadbd", "mysqld"),
		InstallDB: find([]string{"/usr/bin", "/usr/sbin", "/usr/local/bin"}, "mariadb-install-db", "mysql_install_db"),
		Provider:  os.Getenv(EnvProvider),
	}
	if b.Provider == "" {
		b.Provider = find([]string{"/usr/lib/galera", "/usr/lib", "/usr/lib64/galera-4", "/usr/lib64/galera", "/usr/local/lib"}, "libgalera_smm.so")
	}
	var missing []string
	for name, p := range map[string]string{"mariadbd": b.Daemon, "mariadb-install-db": b.InstallDB, "libgalera_smm.so (galera-4)": b.Provider} {
		if p == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return b, fmt.Errorf("not found: %s", strings.Join(missing, ", "))
	}
	return b, nil
}

func find(dirs []string, names ...string) string {
	for _, n := range names {
		for _, d := range dirs {
			p := filepath.Join(d, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p
			}
		}
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// User and Password are the SQL account the cluster is created with
// (all privileges, from 127.0.0.1).
const (
	User     = "xxl"
	Password = "xxl_pwd"
)

// Cluster is a MariaDB Galera cluster on loopback: every node on its own
// data directory and ports under one base directory, never touching a
// server already running on the machine.
type Cluster struct {
	bin   Binaries
	base  string
	runAs string // the daemons' user when run as root ("mysql")
	nodes []*Node
}

// Start creates and starts an n-node cluster under base (keep it short:
// socket paths are limited to 108 bytes). No snapshot transfer is needed:
// node 1 is initialised and started once, shut down cleanly, and its data
// directory copied to the others, so all share one state id; node 1 then
// bootstraps the cluster and the others join with an incremental transfer
// of the few writes since. When run as root the daemons run as "mysql":
// the rsync state transfer script, which the join still runs to hand
// over, fails as root because its daemon drops to "nobody".
func Start(ctx context.Context, bin Binaries, base string, n int) (*Cluster, error) {
	c := &Cluster{bin: bin, base: base}
	if os.Geteuid() == 0 {
		c.runAs = "mysql"
	}
	ports, err := freePorts(4 * n)
	if err != nil {
		return nil, err
	}
	for i := range n {
		name := "n" + strconv.Itoa(i+1)
		c.nodes = append(c.nodes, &Node{Name: name, Port: ports[4*i], gcomm: ports[4*i+1], ist: ports[4*i+2],
			sst: ports[4*i+3], c: c, dir: filepath.Join(base, name), sock: filepath.Join(base, name+".sock")})
	}
	if err := c.initFirst(ctx); err != nil {
		c.Stop()
		return nil, err
	}
	for _, nd := range c.nodes[1:] {
		if err := copyDir(ctx, c.nodes[0].dir, nd.dir); err != nil {
			return nil, err
		}
		// Each node keeps its own write-set cache.
		_ = os.Remove(filepath.Join(nd.dir, "galera.cache"))
	}
	first := c.nodes[0]
	if err := first.start("--wsrep-new-cluster"); err != nil {
		return nil, err
	}
	if err := first.waitSynced(ctx, 1); err != nil {
		c.Stop()
		return nil, err
	}
	for i, nd := range c.nodes[1:] {
		if err := nd.start(); err != nil {
			c.Stop()
			return nil, err
		}
		if err := nd.waitSynced(ctx, i+2); err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// initFirst creates node 1's data directory and account, with one start
// as a single-node cluster so that the copies carry its state id.
func (c *Cluster) initFirst(ctx context.Context) error {
	first := c.nodes[0]
	args := []string{"--no-defaults", "--datadir=" + first.dir, "--auth-root-authentication-method=normal",
		"--skip-test-db", "--innodb-log-file-size=16M"}
	if c.runAs != "" {
		if err := chownTo(c.base, c.runAs); err != nil {
			return err
		}
		args = append(args, "--user="+c.runAs)
	}
	if out, err := exec.CommandContext(ctx, c.bin.InstallDB, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w\n%s", c.bin.InstallDB, err, out)
	}
	if err := first.start("--wsrep-new-cluster"); err != nil {
		return err
	}
	if err := first.waitSynced(ctx, 1); err != nil {
		return err
	}
	db, err := first.root()
	if err != nil {
		return err
	}
	for _, stmt := range []string{
		fmt.Sprintf("CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'", User, Password),
		fmt.Sprintf("GRANT ALL ON *.* TO '%s'@'127.0.0.1'", User),
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			db.Close()
			return fmt.Errorf("%s: %s: %w", first.Name, stmt, err)
		}
	}
	db.Close()
	return first.stop(time.Minute)
}

// Nodes is the number of nodes.
func (c *Cluster) Nodes() int { return len(c.nodes) }

// Node returns node i (0-based).
func (c *Cluster) Node(i int) *Node { return c.nodes[i] }

// DSN is the go-sql-driver DSN of database db on node i.
func (c *Cluster) DSN(i int, db string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net = User, Password, "tcp"
	cfg.Addr, cfg.DBName = "127.0.0.1:"+strconv.Itoa(c.nodes[i].Port), db
	return cfg.FormatDSN()
}

// JDBCURL is the spring.datasource.url of database db on node i.
func (c *Cluster) JDBCURL(i int, db, zone string) string {
	return fmt.Sprintf("jdbc:mysql://127.0.0.1:%d/%s?useUnicode=true&characterEncoding=UTF-8&serverTimezone=%s",
		c.nodes[i].Port, db, zone)
}

// Kill SIGKILLs node i, as a crash of its machine would.
func (c *Cluster) Kill(i int) { c.nodes[i].kill() }

// Rejoin restarts a killed node i the way an operator would: recover its
// last committed position from InnoDB (--wsrep-recover), start it from
// there (--wsrep-start-position) so that it catches up by incremental
// transfer from a survivor's write-set cache, and wait until it is synced
// in a cluster of every node.
func (c *Cluster) Rejoin(ctx context.Context, i int) error {
	n := c.nodes[i]
	if n.running() {
		return fmt.Errorf("%s is running", n.Name)
	}
	pos, err := n.recoverPosition(ctx)
	if err != nil {
		return err
	}
	if err := n.start("--wsrep-start-position=" + pos); err != nil {
		return err
	}
	return n.waitSynced(ctx, len(c.nodes))
}

// WaitSynced waits until node i is synced in a cluster of size members.
func (c *Cluster) WaitSynced(ctx context.Context, i, size int) error {
	return c.nodes[i].waitSynced(ctx, size)
}

// Stop shuts every running node down, the last one first.
func (c *Cluster) Stop() error {
	var errs []error
	for i := len(c.nodes) - 1; i >= 0; i-- {
		errs = append(errs, c.nodes[i].stop(time.Minute))
	}
	return errors.Join(errs...)
}

// Logs names every node's error log, for a failed test to point at.
func (c *Cluster) Logs() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = n.errorLog()
	}
	return out
}

// freePorts picks n ports the kernel hands to no other program: below the
// ephemeral range that binding port 0 and outgoing connections draw from,
// each checked free. A node's ports are unbound while it is down, and its
// IST and SST ports are bound only while it joins; in the ephemeral range
// a test running beside this one could take them meanwhile and the rejoin
// would fail. Outside Linux, or with no room below the range, the kernel
// picks (port 0).
func freePorts(n int) ([]int, error) {
	lo, hi := belowEphemeral()
	if hi-lo < 4*n {
		return kernelPorts(n)
	}
	out := make([]int, 0, n)
	start := lo + rand.IntN(hi-lo)
	for i := 0; i < hi-lo && len(out) < n; i++ {
		p := lo + (start-lo+i)%(hi-lo)
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		l.Close()
		out = append(out, p)
	}
	if len(out) < n {
		return nil, fmt.Errorf("free port: only %d of %d free in %d–%d", len(out), n, lo, hi)
	}
	return out, nil
}

// belowEphemeral is the span of ports just below the kernel's ephemeral
// range (Linux: net.ipv4.ip_local_port_range), or an empty one.
func belowEphemeral() (lo, hi int) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, 0
	}
	low, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, 0
	}
	return max(10000, low-10000), low
}

func kernelPorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	out := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("free port: %w", err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

func copyDir(ctx context.Context, from, to string) error {
	if out, err := exec.CommandContext(ctx, "cp", "-a", from, to).CombinedOutput(); err != nil {
		return fmt.Errorf("copy %s to %s: %w\n%s", from, to, err, out)
	}
	return nil
}

func chownTo(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("daemon user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return fmt.Errorf("hand %s to %s: %w", dir, name, err)
	}
	return nil
}
