package app

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// consoleSecret is the key that signs console login cookies. Every admin
// sharing a database must have the same one so a user stays logged in
// whichever admin answers:
//
//   - xxl.job.console.secret (or its .file) when set;
//   - on the embedded SQLite store (one process), a random key kept in a
//     file beside the database;
//   - else derived from what every admin of one database already shares and
//     console users do not know: the datasource user name and password and
//     the access token. A weak datasource password makes a weak key: the
//     start-up log says so.
func consoleSecret(cfg *config.Config, target schema.Target, log zerolog.Logger) ([]byte, error) {
	if cfg.Console.Secret != "" {
		if len(cfg.Console.Secret) < 16 {
			return nil, fmt.Errorf("xxl.job.console.secret: use at least 16 characters")
		}
		return []byte(cfg.Console.Secret), nil
	}
	if target.Backend == schema.SQLite && target.Path != "" && target.Path != ":memory:" {
		return fileSecret(target.Path + ".console-secret")
	}
	if target.Backend == schema.SQLite {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		return b, nil
	}
	if weakPassword(cfg.Datasource.Password) {
		log.Warn().Msg("console login cookies are signed with a key derived from a weak datasource password; " +
			"set xxl.job.console.secret (the same on every admin)")
	}
	m := hmac.New(sha256.New, []byte("xxl-admin-go console session key v1"))
	for _, part := range []string{cfg.Datasource.Username, cfg.Datasource.Password, cfg.AccessToken} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return m.Sum(nil), nil
}

func weakPassword(p string) bool {
	switch p {
	case "", "root", "root_pwd", "123456", "password", "xxl_pwd":
		return true
	}
	return len(p) < 8
}

// fileSecret reads a key file, creating it (mode 0600) with a random key
// the first time.
func fileSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil && len(b) >= 32 {
		return b, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("console secret %s: %w", path, err)
	}
	b = make([]byte, 32)
	_, _ = rand.Read(b)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("console secret %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("console secret %s: %w", path, err)
	}
	return b, nil
}
