package image

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

// Dockerfile is what the deployment examples must agree with: the
// instructions of the repository's Dockerfile that shape a container.
type Dockerfile struct {
	Expose      []string          // "8080"
	Env         map[string]string // ENV
	User        string            // USER
	Entrypoint  []string          // ENTRYPOINT (exec form)
	HealthCheck []string          // HEALTHCHECK ... CMD (exec form)
	Labels      map[string]string // LABEL
	Workdir     string
}

// ParseDockerfile reads the instructions this project's Dockerfile uses.
// It joins continuation lines and skips comments; values are split like a
// shell word list (quotes work), which is how Docker reads ENV and LABEL.
func ParseDockerfile(file string) (*Dockerfile, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	d := &Dockerfile{Env: map[string]string{}, Labels: map[string]string{}}
	var logical []string
	var cur strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if cur.Len() == 0 && (t == "" || strings.HasPrefix(t, "#")) {
			continue
		}
		if strings.HasPrefix(t, "#") {
			continue // a comment inside a continued instruction
		}
		if cont, ok := strings.CutSuffix(t, `\`); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(t)
		logical = append(logical, cur.String())
		cur.Reset()
	}
	for _, l := range logical {
		kw, rest, _ := strings.Cut(l, " ")
		rest = strings.TrimSpace(rest)
		switch strings.ToUpper(kw) {
		case "EXPOSE":
			for _, p := range strings.Fields(rest) {
				d.Expose = append(d.Expose, strings.TrimSuffix(p, "/tcp"))
			}
		case "ENV":
			if err := pairs(rest, d.Env); err != nil {
				return nil, fmt.Errorf("ENV: %w", err)
			}
		case "LABEL":
			if err := pairs(rest, d.Labels); err != nil {
				return nil, fmt.Errorf("LABEL: %w", err)
			}
		case "USER":
			d.User = rest
		case "WORKDIR":
			d.Workdir = rest
		case "ENTRYPOINT":
			if err := json.Unmarshal([]byte(rest), &d.Entrypoint); err != nil {
				return nil, fmt.Errorf("ENTRYPOINT must be in exec form: %w", err)
			}
		case "HEALTHCHECK":
			_, cmd, ok := strings.Cut(rest, "CMD ")
			if !ok {
				return nil, fmt.Errorf("HEALTHCHECK without CMD: %s", rest)
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(cmd)), &d.HealthCheck); err != nil {
				return nil, fmt.Errorf("HEALTHCHECK CMD must be in exec form (no shell in the image): %w", err)
			}
		}
	}
	return d, nil
}

// pairs reads key=value words into m.
func pairs(s string, m map[string]string) error {
	words, err := config.SplitParams(s)
	if err != nil {
		return err
	}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return fmt.Errorf("%q is not key=value", w)
		}
		m[k] = v
	}
	return nil
}
