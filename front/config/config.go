// Package config loads rypsok's configuration (docs/configuration.md): a
// strict TOML file (unknown keys and inline secrets refused,
// config_version = 1), located by --config or RYPSOK_CONFIG, parsed once
// into typed runtime values, with every problem named at once by its
// field and line (shared/confcheck, the format rypsok-egress shares). It
// also reads the engines' credentials, once, at load, and renders the
// configuration of the rypsok-egress that rypsok starts itself
// (EgressTOML). It opens no connection and starts nothing.
package config

import (
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/confcheck"
	"github.com/rypsok/rypsok/shared/policy"
)

// Version is the only config_version accepted.
const Version = 1

// EnvConfig is the environment variable that names the configuration file
// when --config does not.
const EnvConfig = "RYPSOK_CONFIG"

// Config is the parsed configuration. It is a value: nothing in it is
// parsed again at run time.
type Config struct {
	Service Service
	Search  Search
	Fetch   Fetch
	Egress  Egress
	Privacy Privacy
	// LogLevel is the level of the log ([logging] level); info by default
	// (LIM-P2).
	LogLevel zerolog.Level
	// MetricsListen is the loopback "ip:port" where the counters are
	// served in the Prometheus text format ([telemetry] metrics_listen);
	// "" (the default) serves nothing.
	MetricsListen string
	// Cache is the [cache] section.
	Cache Cache
	// SharedState is the [shared_state] section: none by default.
	SharedState SharedState
	// Scraping, if true ([scraping] enabled), admits engines of scraping
	// types (REQ-ENG-013); false by default, and never in the default set.
	Scraping bool
	// Engines are the configured engines in preference order: the order
	// of their [engines.<id>] tables in the file. A file that configures
	// no engine gets the default set (wikipedia, then brave), as Default.
	Engines []Engine
}

// Service is the [service] section.
type Service struct {
	// StructuredContent, if true (the default), returns structuredContent
	// beside the text content of a tool result.
	StructuredContent bool
	// EngineStatus, if true (the default), lists the engine_status tool;
	// false removes it (REQ-STATUS-003).
	EngineStatus bool
	// Contact is the operator contact rypsok's User-Agent carries
	// (docs/design: engines and compliance:
	// rypsok/<version> (+<project URL>; <contact>)); "" for none.
	Contact string
	// HTTP is the Streamable HTTP listener's part (serve --transport http).
	HTTP HTTP
}

// Search is the [search] section.
type Search struct {
	// Languages are the language codes offered to callers, the first
	// being the default; ["en"] by default. Never empty.
	Languages []string
	// Region is a two-letter upper-case region code, "" (the default) for
	// none.
	Region string
	// SafeSearch is the safe-search level asked of engines; moderate by
	// default.
	SafeSearch SafeSearch
	// MaxResults is the default of the max_results parameter (LIM-S2).
	MaxResults int
	// Deadline is the overall search deadline (LIM-S4); it leaves at least
	// LIM-S5 + LIM-S6.
	Deadline time.Duration
	// DropInstructionLike, if true, drops results holding instruction-like
	// content instead of only reporting them. False by default.
	DropInstructionLike bool
}

// SafeSearch is a safe-search level.
type SafeSearch string

// The safe-search levels.
const (
	SafeSearchOff      SafeSearch = "off"
	SafeSearchModerate SafeSearch = "moderate"
	SafeSearchStrict   SafeSearch = "strict"
)

// Cache is the [cache] section (docs/design: result cache): off by default.
type Cache struct {
	// Enabled turns the search result cache on.
	Enabled bool
	// TTL is an entry's lifetime (LIM-K2 by default).
	TTL time.Duration
}

// MaxCacheTTL is the longest cache.ttl_s accepted: a day.
const MaxCacheTTL = 24 * time.Hour

// Fetch is the [fetch] section.
type Fetch struct {
	// MaxChars is the default of web_fetch's max_chars (LIM-F1);
	// MaxCharsCeiling is the highest value a caller may ask (LIM-F2).
	// MinMaxChars <= MaxChars <= MaxCharsCeiling.
	MaxChars        int
	MaxCharsCeiling int
	// RobotsTxt, if true (the default), honors robots.txt.
	RobotsTxt bool
	// FollowCrossHostRedirects, if true, follows redirects to other hosts;
	// false by default (they are returned as redirected).
	FollowCrossHostRedirects bool
	// StrictMode, if true, fetches only URLs rypsok returned earlier in the
	// process, plus the allow list. False by default.
	StrictMode bool
}

// MinMaxChars is the lowest value of fetch.max_chars and
// fetch.max_chars_ceiling.
const MinMaxChars = 500

// Egress is the [egress] section.
type Egress struct {
	// Socket is the Unix socket of an egress started separately (sidecar
	// mode), an absolute path; "" (the default) means rypsok starts its
	// own.
	Socket string
	// DNSServers are the "ip:port" DNS servers handed to the egress rypsok
	// starts; nil means the egress reads /etc/resolv.conf.
	DNSServers []string
	// AllowHTTP, if true, lets web_fetch use http and port 80. False by
	// default.
	AllowHTTP bool
	// Allow and Deny are the parsed allow and deny rules; nil for none.
	// They are handed on to the egress in their canonical form
	// (Rule.String).
	Allow, Deny policy.Rules
	// CAFile is an extra PEM CA bundle for the egress, "" for none. It
	// held a PEM certificate when the configuration was loaded.
	CAFile string
}

// Privacy is the [privacy] section.
type Privacy struct {
	// SecretDetection is what a credential in a query or URL causes;
	// refuse by default (LIM-P1).
	SecretDetection SecretMode
}

// SecretMode is the answer to a credential found in a query or URL.
type SecretMode string

// The secret-detection modes.
const (
	SecretRefuse SecretMode = "refuse"
	SecretWarn   SecretMode = "warn"
	SecretMask   SecretMode = "mask"
	SecretOff    SecretMode = "off"
)

// FieldError is one problem of a configuration: the dotted field it
// concerns ("search.deadline_ms", "engines.brave.endpoint"), what is
// wrong, and where (file and line). Parse and Load join every FieldError
// they find. It is shared/confcheck's, so that rypsok and rypsok-egress
// name problems in one format.
type FieldError = confcheck.FieldError

// Default returns the configuration used when no file is given: every
// default, and the engines wikipedia then brave. Brave is active exactly
// when env("BRAVE_API_KEY") is set and not blank; otherwise its State is
// EngineNoCredential. A nil env reads as an empty environment.
func Default(env func(string) string) Config {
	c, _ := build(defaultFile(), nil, env) // the defaults are valid: TestDefaultIsValid
	return c
}

// Load reads and parses the file at path (see Parse); its problems name
// the file and their lines.
func Load(path string, env func(string) string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return parse(path, data, env)
}

// Parse parses a configuration file's content. env reads the environment
// (os.Getenv in production; nil reads as an empty one) for the engines'
// api_key_env. Its error joins a *FieldError per problem found, every
// one (unknown keys and values of the wrong type included), with its
// line, in document order; only a TOML syntax error is reported alone.
func Parse(data []byte, env func(string) string) (Config, error) {
	return parse("", data, env)
}

// parse parses data, the content of file ("" when it is not a file's).
func parse(file string, data []byte, env func(string) string) (Config, error) {
	doc, err := confcheck.Read(file, data)
	if err != nil {
		return Config{}, err
	}
	f := defaultFile()
	errs := doc.Decode(&f, inlineSecret(doc.Paths()))
	if err := doc.CheckVersion(Version); err != nil {
		errs = append(errs, err)
	}
	c, more := build(f, engineOrder(doc.Paths()), env)
	if err := doc.Locate(append(errs, more...)); err != nil {
		return Config{}, err
	}
	return c, nil
}

// Locate returns the configuration file to read: flagPath (--config) when
// set, else $RYPSOK_CONFIG when set; ok is false when neither is, and the
// defaults apply.
func Locate(flagPath string, env func(string) string) (path string, ok bool) {
	if flagPath != "" {
		return flagPath, true
	}
	if p := getenv(env, EnvConfig); p != "" {
		return p, true
	}
	return "", false
}

// getenv reads name through env, a nil env reading as empty.
func getenv(env func(string) string, name string) string {
	if env == nil {
		return ""
	}
	return env(name)
}
