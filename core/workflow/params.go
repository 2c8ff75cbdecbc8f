package workflow

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseParams reads run parameters: one key=value a line, blank lines and lines starting with '#' ignored, the value
// taken as written after the first '='. A key is letters, digits, '_',
// '-' and '.'; a line without '=' or with another key is refused.
func ParseParams(text string) (map[string]string, error) {
	out := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !validKey(k) {
			return nil, fmt.Errorf("run parameter %d (%q): want key=value with a key of letters, digits, '_', '-' or '.'", i+1, line)
		}
		out[k] = v
	}
	return out, nil
}

func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// MergeParams lays the run's own parameters over the workflow's defaults.
func MergeParams(defaults, own map[string]string) map[string]string {
	out := make(map[string]string, len(defaults)+len(own))
	for k, v := range defaults {
		out[k] = v
	}
	for k, v := range own {
		out[k] = v
	}
	return out
}

// RunTimeLayout is how ${run.time} is written.
const RunTimeLayout = "2006-01-02 15:04:05"

// Vars are what a node's parameter may name.
type Vars struct {
	RunID  int64
	Time   time.Time // the run's planned time, in the zone it is shown in
	Params map[string]string
}

// Expand replaces ${run.id}, ${run.time} and ${param.NAME} in s. A
// placeholder it does not know (another name, a parameter the run does
// not have) is left as written, so a job parameter that uses the same
// syntax for its own purposes passes through unchanged.
func Expand(s string, v Vars) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		name := s[i+2 : i+j]
		b.WriteString(s[:i])
		if val, ok := v.lookup(name); ok {
			b.WriteString(val)
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

func (v Vars) lookup(name string) (string, bool) {
	switch name {
	case "run.id":
		return strconv.FormatInt(v.RunID, 10), true
	case "run.time":
		return v.Time.Format(RunTimeLayout), true
	}
	if p, ok := strings.CutPrefix(name, "param."); ok {
		val, ok := v.Params[p]
		return val, ok
	}
	return "", false
}
