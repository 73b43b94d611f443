package config

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// SharedState is the [shared_state] section (docs/replicas.md): where
// several replicas share provider pacing, per-caller rate limits
// (LIM-C6) and the result cache. The zero value (no url, the default)
// keeps everything in process.
type SharedState struct {
	// URL is redis://host:port[/db] or rediss://host:port[/db] (TLS),
	// perhaps with user and password; "" for none. It is never logged.
	URL string
	// Password is read once at load from the variable password_env names;
	// "" for none (the URL's, if any, then applies). Never logged.
	Password string
	// Prefix starts every key, so that several deployments may share one
	// Redis; "rypsok" by default.
	Prefix string
}

// Enabled reports whether the replicas share their state.
func (s SharedState) Enabled() bool { return s.URL != "" }

// String describes the section without its URL or password, so that no
// print of a Config shows them.
func (s SharedState) String() string {
	if !s.Enabled() {
		return "{in process}"
	}
	return fmt.Sprintf("{redis, prefix %s, password_env %t}", s.Prefix, s.Password != "")
}

type sharedStateFile struct {
	URL         string `toml:"url"`
	PasswordEnv string `toml:"password_env"`
	Prefix      string `toml:"prefix"`
}

// DefaultSharedStatePrefix is shared_state.prefix's default.
const DefaultSharedStatePrefix = "rypsok"

// sharedStatePrefix is what a prefix may be: a name, not a pattern.
var sharedStatePrefix = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// envName is what password_env may name: a variable name.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// sharedState checks [shared_state] and returns it. Its problems never
// quote the URL: it may hold a password.
func (p *problems) sharedState(f sharedStateFile, env func(string) string) SharedState {
	s := SharedState{URL: f.URL, Prefix: f.Prefix}
	if !sharedStatePrefix.MatchString(f.Prefix) {
		p.add("shared_state.prefix", "want 1 to 64 letters, digits, _, . or -")
	}
	if f.PasswordEnv != "" {
		if !envName.MatchString(f.PasswordEnv) {
			p.add("shared_state.password_env", "want an environment variable's name")
		} else if s.Password = strings.TrimSpace(getenv(env, f.PasswordEnv)); s.Password == "" {
			p.add("shared_state.password_env", "%s is not set or blank", f.PasswordEnv)
		}
		if f.URL == "" {
			p.add("shared_state.password_env", "set only with shared_state.url")
		}
	}
	if f.URL == "" {
		return s
	}
	if problem := redisURLProblem(f.URL); problem != "" {
		p.add("shared_state.url", "%s", problem)
	}
	return s
}

// redisURLProblem says what is wrong with a [shared_state] url, "" when
// nothing is: redis:// or rediss://, a host and port, at most a database
// number, and nothing else (no query: the deadlines are rypsok's own).
func redisURLProblem(raw string) string {
	const want = "want redis://host:port/db or rediss://host:port/db (user and password allowed, no query)"
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Hostname() == "" || u.Port() == "" ||
		u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return want
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		if n, err := strconv.Atoi(db); err != nil || n < 0 || n > 15 {
			return "want a database number 0 to 15 as the url's path"
		}
	}
	return ""
}
