package config

import (
	"fmt"
	"strings"
)

// layer is one property source. Layers are consulted highest precedence first,
// following Spring Boot's order: command line, JVM system properties, OS
// environment, external application.properties, built-in defaults.
type layer struct {
	name  string
	props map[string]string // keys in canonical form, see canonicalKey
	env   map[string]string // OS environment, looked up with relaxed names
}

// canonicalKey folds the spellings Spring's relaxed binding treats as one
// property: case and dashes do not matter (`xxl.job.accessToken`,
// `xxl.job.access-token`, `XXL.JOB.ACCESSTOKEN`).
func canonicalKey(k string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(k), "-", ""))
}

func newLayer(name string, raw map[string]string) layer {
	props := make(map[string]string, len(raw))
	for k, v := range raw {
		props[canonicalKey(k)] = v
	}
	return layer{name: name, props: props}
}

func envLayer(environ []string) layer {
	env := make(map[string]string, len(environ))
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			env[k] = v
		}
	}
	return layer{name: "environment", env: env}
}

// envNames lists the environment variable names Spring Boot maps to key:
// upper case, '.' → '_', and '-' either dropped or turned into '_'.
func envNames(key string) []string {
	up := strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
	dropped := strings.ReplaceAll(up, "-", "")
	underscored := strings.ReplaceAll(up, "-", "_")
	names := []string{dropped}
	if underscored != dropped {
		names = append(names, underscored)
	}
	return names
}

func (l layer) lookup(key string) (string, bool) {
	if l.env != nil {
		for _, n := range envNames(key) {
			if v, ok := l.env[n]; ok {
				return v, true
			}
		}
		return "", false
	}
	v, ok := l.props[canonicalKey(key)]
	return v, ok
}

// parseArgs splits command-line style arguments into `--key=value` options and
// `-Dkey=value` system properties, as `java [-D...] -jar admin.jar [--...]`
// would see them. A bare `--flag` means "true"; `--config FILE` names an
// external properties file. Other words are rejected so typos surface.
func parseArgs(args []string) (opts, sysProps map[string]string, configFile string, err error) {
	opts, sysProps = map[string]string{}, map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--config" || a == "-config":
			if i+1 >= len(args) {
				return nil, nil, "", fmt.Errorf("--config needs a file name")
			}
			i++
			configFile = args[i]
		case strings.HasPrefix(a, "--config="):
			configFile = strings.TrimPrefix(a, "--config=")
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			k, v, _ := strings.Cut(a[2:], "=")
			sysProps[k] = v
		case strings.HasPrefix(a, "--") && len(a) > 2:
			k, v, ok := strings.Cut(a[2:], "=")
			if !ok {
				v = "true"
			}
			opts[k] = v
		case a == "-jar" || strings.HasSuffix(a, ".jar"):
			// tolerated so a copied `java -jar xxl-job-admin.jar ...` line works verbatim
		default:
			return nil, nil, "", fmt.Errorf("unexpected argument %q (options are --key=value)", a)
		}
	}
	return opts, sysProps, configFile, nil
}

// SplitParams splits the PARAMS environment variable the way the official
// Docker image's `sh -c "java -jar ... $PARAMS"` does, honouring single and
// double quotes and backslash escapes so values with spaces survive.
func SplitParams(s string) ([]string, error) {
	var (
		out     []string
		cur     strings.Builder
		inWord  bool
		quote   byte
		escaped bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			cur.WriteByte(c)
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\\':
			escaped, inWord = true, true
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if escaped {
		return nil, fmt.Errorf("trailing backslash")
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
