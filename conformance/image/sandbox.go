package image

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Sandbox runs programs of an unpacked image the way a container engine
// starts them: chrooted into the root file system, in a new user namespace,
// as the image's USER, in its WorkingDir, with the image's environment and
// nothing of the caller's. It shares the caller's network, so the admin
// reaches MariaDB and the fake executor on loopback and the test reaches it.
type Sandbox struct {
	RootFS string
	UID    int
	GID    int
	Env    []string
	Dir    string
	// Owned: the root file system carries the image's owners (unpacked as
	// root), so the namespace maps ids one to one and the kernel checks the
	// image's permissions for the image's user, as under a rootful engine.
	// Otherwise the caller's one id is mapped to the image's user.
	Owned bool
}

// NewSandbox prepares a sandbox for img unpacked in u, with env overriding
// the image's variables of the same name.
func NewSandbox(img Image, u *Unpacked, owned bool, env map[string]string) (*Sandbox, error) {
	uid, gid, err := resolveUser(img.Config.User, u.RootFS)
	if err != nil {
		return nil, err
	}
	s := &Sandbox{RootFS: u.RootFS, UID: uid, GID: gid, Dir: img.Config.WorkingDir, Owned: owned}
	if s.Dir == "" {
		s.Dir = "/"
	}
	seen := map[string]bool{}
	for _, kv := range img.Config.Env {
		k, _, _ := strings.Cut(kv, "=")
		if v, ok := env[k]; ok {
			kv = k + "=" + v
		}
		seen[k] = true
		s.Env = append(s.Env, kv)
	}
	for k, v := range env {
		if !seen[k] {
			s.Env = append(s.Env, k+"="+v)
		}
	}
	return s, nil
}

// Command prepares argv (argv[0] is a path inside the image).
func (s *Sandbox) Command(argv ...string) *exec.Cmd {
	cmd := &exec.Cmd{Path: argv[0], Args: argv, Env: s.Env, Dir: s.Dir}
	attr := &syscall.SysProcAttr{
		Chroot:     s.RootFS,
		Cloneflags: syscall.CLONE_NEWUSER,
		Pdeathsig:  syscall.SIGKILL,
		Credential: &syscall.Credential{Uid: uint32(s.UID), Gid: uint32(s.GID)},
	}
	if s.Owned {
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 65536}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 65536}}
		attr.GidMappingsEnableSetgroups = true
		attr.Credential.Groups = []uint32{} // no supplementary groups, not the caller's root group
	} else {
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: s.UID, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: s.GID, HostID: os.Getgid(), Size: 1}}
		attr.Credential.NoSetGroups = true // setgroups is denied in an unprivileged namespace
	}
	cmd.SysProcAttr = attr
	return cmd
}

// resolveUser turns an image's USER ("65532:65532", "65532", "name[:group]")
// into ids, reading the image's /etc/passwd and /etc/group for names. An
// empty USER is root, as for an engine.
func resolveUser(user, rootfs string) (uid, gid int, err error) {
	if user == "" {
		return 0, 0, nil
	}
	u, g, hasGroup := strings.Cut(user, ":")
	uid, primary, err := lookupID(rootfs, "passwd", u)
	if err != nil {
		return 0, 0, err
	}
	gid = primary
	if hasGroup {
		if gid, _, err = lookupID(rootfs, "group", g); err != nil {
			return 0, 0, err
		}
	}
	return uid, gid, nil
}

// lookupID resolves a number or a name of /etc/passwd or /etc/group; for
// passwd it also returns the user's primary group.
func lookupID(rootfs, db, name string) (id, primaryGID int, err error) {
	if n, err := strconv.Atoi(name); err == nil {
		if db == "passwd" {
			// A numeric user without a passwd line runs with gid 0, as in Docker.
			_, g, lerr := lookupID(rootfs, db, "#"+name)
			if lerr != nil {
				g = 0
			}
			return n, g, nil
		}
		return n, 0, nil
	}
	f, err := os.Open(filepath.Join(rootfs, "etc", db))
	if err != nil {
		return 0, 0, fmt.Errorf("USER %q: %w", name, err)
	}
	defer f.Close()
	byID := strings.HasPrefix(name, "#")
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) < 3 {
			continue
		}
		if (byID && fields[2] == name[1:]) || (!byID && fields[0] == name) {
			id, _ := strconv.Atoi(fields[2])
			if db == "passwd" && len(fields) > 3 {
				primaryGID, _ = strconv.Atoi(fields[3])
			}
			return id, primaryGID, nil
		}
	}
	return 0, 0, fmt.Errorf("USER %q: not in /etc/%s", name, db)
}
