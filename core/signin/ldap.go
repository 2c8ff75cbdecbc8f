package signin

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-ldap/ldap/v3"
)

// Directory errors.
var (
	// ErrBadCredentials: no such user, a wrong password, or an account the
	// directory refuses to bind (locked, disabled). One error for all, so
	// the answer does not tell which names exist.
	ErrBadCredentials = errors.New("wrong user name or password")
	// ErrUnavailable: the directory could not be asked (down, TLS, the
	// service account's bind refused).
	ErrUnavailable = errors.New("the LDAP directory is unavailable")
)

// LDAPConfig is xxl.job.console.ldap.*.
type LDAPConfig struct {
	URL          string      // ldap://host:389 or ldaps://host:636
	StartTLS     bool        // upgrade an ldap:// connection before any bind
	TLS          *tls.Config // server name and CA pool for LDAPS and StartTLS; nil: the system's
	BindDN       string      // service account that searches; empty: anonymous search
	BindPassword string
	BaseDN       string // where users are searched
	UserFilter   string // {0} is the escaped login name, e.g. (uid={0})
	UserAttr     string // attribute holding the user name stored in xxl_job_user (default uid)
	GroupBaseDN  string // where groups are searched (default BaseDN)
	GroupFilter  string // {0} is the escaped user DN, {1} the escaped user name, e.g. (member={0})
	GroupAttr    string // attribute naming a group (default cn)
	Timeout      time.Duration
}

// Directory authenticates users against an LDAP directory: search for the
// user as the service account, bind as the user with the password, then
// read the user's groups.
type Directory struct {
	cfg LDAPConfig
}

// NewDirectory checks cfg and fills its defaults.
func NewDirectory(cfg LDAPConfig) (*Directory, error) {
	if !strings.HasPrefix(cfg.URL, "ldap://") && !strings.HasPrefix(cfg.URL, "ldaps://") {
		return nil, fmt.Errorf("ldap url %q: want ldap:// or ldaps://", cfg.URL)
	}
	if cfg.StartTLS && strings.HasPrefix(cfg.URL, "ldaps://") {
		return nil, fmt.Errorf("ldap: start-tls is for ldap:// URLs; ldaps:// is TLS already")
	}
	if cfg.BaseDN == "" {
		return nil, fmt.Errorf("ldap: base-dn is required")
	}
	if !strings.Contains(cfg.UserFilter, "{0}") {
		return nil, fmt.Errorf("ldap: user-filter %q must contain {0}", cfg.UserFilter)
	}
	if cfg.UserAttr == "" {
		cfg.UserAttr = "uid"
	}
	if cfg.GroupBaseDN == "" {
		cfg.GroupBaseDN = cfg.BaseDN
	}
	if cfg.GroupAttr == "" {
		cfg.GroupAttr = "cn"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.TLS == nil {
		cfg.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	if cfg.TLS.ServerName == "" {
		u, err := url.Parse(cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("ldap url %q: %w", cfg.URL, err)
		}
		cfg.TLS = cfg.TLS.Clone()
		cfg.TLS.ServerName = u.Hostname()
	}
	return &Directory{cfg: cfg}, nil
}

// Authenticate checks a login name and password.
func (d *Directory) Authenticate(username, password string) (Identity, error) {
	// An empty password is an unauthenticated bind, which directories
	// accept for any DN (RFC 4513 §5.1.2): never try it.
	if username == "" || password == "" {
		return Identity{}, ErrBadCredentials
	}
	conn, err := d.connect()
	if err != nil {
		return Identity{}, err
	}
	defer conn.Close()
	if err := d.bindService(conn); err != nil {
		return Identity{}, err
	}
	filter := strings.ReplaceAll(d.cfg.UserFilter, "{0}", ldap.EscapeFilter(username))
	res, err := conn.Search(ldap.NewSearchRequest(d.cfg.BaseDN, ldap.ScopeWholeSubtree, ldap.NeverDerefAliases,
		2, int(d.cfg.Timeout/time.Second), false, filter, []string{d.cfg.UserAttr}, nil))
	if err != nil && !ldap.IsErrorWithCode(err, ldap.LDAPResultSizeLimitExceeded) {
		return Identity{}, fmt.Errorf("%w: user search: %v", ErrUnavailable, err)
	}
	if res == nil || len(res.Entries) != 1 {
		// None, or several (a filter that is not unique): refuse.
		return Identity{}, ErrBadCredentials
	}
	entry := res.Entries[0]
	if err := conn.Bind(entry.DN, password); err != nil {
		if ldap.IsErrorWithCode(err, ldap.LDAPResultInvalidCredentials) {
			return Identity{}, ErrBadCredentials
		}
		return Identity{}, fmt.Errorf("%w: bind as the user: %v", ErrUnavailable, err)
	}
	id := Identity{Source: "ldap", Username: entry.GetAttributeValue(d.cfg.UserAttr)}
	if id.Username == "" {
		id.Username = username
	}
	if d.cfg.GroupFilter == "" {
		return id, nil
	}
	if err := d.bindService(conn); err != nil {
		return Identity{}, err
	}
	gf := strings.NewReplacer("{0}", ldap.EscapeFilter(entry.DN), "{1}", ldap.EscapeFilter(id.Username)).Replace(d.cfg.GroupFilter)
	groups, err := conn.Search(ldap.NewSearchRequest(d.cfg.GroupBaseDN, ldap.ScopeWholeSubtree, ldap.NeverDerefAliases,
		0, int(d.cfg.Timeout/time.Second), false, gf, []string{d.cfg.GroupAttr}, nil))
	if err != nil {
		return Identity{}, fmt.Errorf("%w: group search: %v", ErrUnavailable, err)
	}
	for _, g := range groups.Entries {
		if name := g.GetAttributeValue(d.cfg.GroupAttr); name != "" {
			id.Groups = append(id.Groups, name)
		}
	}
	return id, nil
}

func (d *Directory) connect() (*ldap.Conn, error) {
	tlsCfg := d.cfg.TLS
	conn, err := ldap.DialURL(d.cfg.URL, ldap.DialWithDialer(&net.Dialer{Timeout: d.cfg.Timeout}),
		ldap.DialWithTLSConfig(tlsCfg))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	conn.SetTimeout(d.cfg.Timeout)
	if d.cfg.StartTLS {
		if err := conn.StartTLS(tlsCfg); err != nil {
			conn.Close()
			return nil, fmt.Errorf("%w: StartTLS: %v", ErrUnavailable, err)
		}
	}
	return conn, nil
}

// bindService binds as the service account (or anonymously without one).
func (d *Directory) bindService(conn *ldap.Conn) error {
	var err error
	if d.cfg.BindDN == "" {
		err = conn.UnauthenticatedBind("")
	} else {
		err = conn.Bind(d.cfg.BindDN, d.cfg.BindPassword)
	}
	if err != nil {
		return fmt.Errorf("%w: bind as the service account: %v", ErrUnavailable, err)
	}
	return nil
}
