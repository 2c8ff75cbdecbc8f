package cluster

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
)

// AdminPackage is the import path of the admin command.
const AdminPackage = "github.com/xxl-admin-go/xxl-admin-go/cmd/xxl-admin-go"

// BuildAdmin compiles the admin binary into dir and returns its path.
func BuildAdmin(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "xxl-admin-go")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, AdminPackage).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", AdminPackage, err, out)
	}
	return bin, nil
}

// AdminArgs are the command-line settings that point an admin at a database.
func AdminArgs(url, user, pass, token string) []string {
	return []string{"--spring.datasource.url=" + url, "--spring.datasource.username=" + user,
		"--spring.datasource.password=" + pass, "--xxl.job.accessToken=" + token}
}
