package config

import (
	"slices"
	"strings"
	"time"

	"github.com/rypsok/rypsok/shared/confcheck"
	"github.com/rypsok/rypsok/shared/limits"
)

// file is the schema of the TOML file; it stays private so that only
// Config, the parsed form, is used at run time.
type file struct {
	ConfigVersion int         `toml:"config_version"`
	Service       serviceFile `toml:"service"`
	Search        searchFile  `toml:"search"`
	Fetch         fetchFile   `toml:"fetch"`
	Egress        egressFile  `toml:"egress"`
	Privacy       struct {
		SecretDetection string `toml:"secret_detection"`
	} `toml:"privacy"`
	Logging struct {
		Level string `toml:"level"`
	} `toml:"logging"`
	Telemetry struct {
		MetricsListen string `toml:"metrics_listen"`
	} `toml:"telemetry"`
	Cache       cacheFile       `toml:"cache"`
	SharedState sharedStateFile `toml:"shared_state"`
	Scraping    struct {
		Enabled bool `toml:"enabled"`
	} `toml:"scraping"`
	Engines map[string]engineFile `toml:"engines"`
}

type cacheFile struct {
	Enabled bool  `toml:"enabled"`
	TTLS    int64 `toml:"ttl_s"`
}

type serviceFile struct {
	StructuredContent    bool                  `toml:"structured_content"`
	EngineStatus         bool                  `toml:"engine_status"`
	Contact              string                `toml:"contact"`
	Listen               string                `toml:"listen"`
	TokenEnv             string                `toml:"token_env"`
	TokenFile            string                `toml:"token_file"`
	Callers              map[string]callerFile `toml:"callers"`
	AllowedOrigins       []string              `toml:"allowed_origins"`
	AllowedHosts         []string              `toml:"allowed_hosts"`
	ConnectionsPerSource int                   `toml:"connections_per_source"`
}

// callerFile is one [service.callers.<name>] table: a caller of the HTTP
// transport and where its bearer token is read from.
type callerFile struct {
	TokenEnv  string `toml:"token_env"`
	TokenFile string `toml:"token_file"`
}

type searchFile struct {
	Languages           []string `toml:"languages"`
	Region              string   `toml:"region"`
	SafeSearch          string   `toml:"safe_search"`
	MaxResults          int      `toml:"max_results"`
	DeadlineMS          int64    `toml:"deadline_ms"`
	DropInstructionLike bool     `toml:"drop_instruction_like"`
}

type fetchFile struct {
	MaxChars                 int  `toml:"max_chars"`
	MaxCharsCeiling          int  `toml:"max_chars_ceiling"`
	RobotsTxt                bool `toml:"robots_txt"`
	FollowCrossHostRedirects bool `toml:"follow_cross_host_redirects"`
	StrictMode               bool `toml:"strict_mode"`
}

type egressFile struct {
	Socket     string   `toml:"socket"`
	DNSServers []string `toml:"dns_servers"`
	AllowHTTP  bool     `toml:"allow_http"`
	Allow      []string `toml:"allow"`
	Deny       []string `toml:"deny"`
	CAFile     string   `toml:"ca_file"`
}

// engineFile is one [engines.<id>] table. Pointers and nil slices mark
// keys the file left out, so that the type's defaults apply.
type engineFile struct {
	Type       string   `toml:"type"`
	Enabled    *bool    `toml:"enabled"`
	Categories []string `toml:"categories"`
	APIKeyEnv  string   `toml:"api_key_env"`
	APIKeyFile string   `toml:"api_key_file"`
	Endpoint   string   `toml:"endpoint"`
	Weight     *float64 `toml:"weight"`
	// RatePerSecond and Burst set the provider's pace for the operator's
	// plan; the type's (its smallest plan's) when absent.
	RatePerSecond *float64 `toml:"rate_per_second"`
	Burst         *int     `toml:"burst"`
}

// Engine defaults that do not depend on the type.
const (
	defaultEngineEnabled = true
	defaultEngineWeight  = 1.0
)

// defaultFile returns the schema filled with every default: a file is
// decoded over it, so a key the file leaves out keeps its default. It has
// no config_version (the file must write it) and no engines (a file
// without [engines.*] tables gets defaultEngines).
func defaultFile() file {
	return file{
		Service: serviceFile{
			StructuredContent:    true,
			EngineStatus:         true,
			Listen:               DefaultListen,
			ConnectionsPerSource: limits.H1Connections / 4,
		},
		Search: searchFile{
			Languages:  []string{"en"},
			SafeSearch: string(SafeSearchModerate),
			MaxResults: limits.S2MaxResultsDefault,
			DeadlineMS: limits.S4SearchDeadline.Milliseconds(),
		},
		Fetch: fetchFile{
			MaxChars:        limits.F1MaxCharsDefault,
			MaxCharsCeiling: limits.F2MaxCharsCeiling,
			RobotsTxt:       true,
		},
		Privacy: struct {
			SecretDetection string `toml:"secret_detection"`
		}{limits.P1SecretDetection},
		Cache:       cacheFile{TTLS: int64(limits.K2CacheTTL / time.Second)},
		SharedState: sharedStateFile{Prefix: DefaultSharedStatePrefix},
		Logging: struct {
			Level string `toml:"level"`
		}{limits.P2LogLevel},
	}
}

// msgInlineSecret is the problem of a key that looks like a credential.
const msgInlineSecret = "inline secrets are refused; use api_key_env or api_key_file"

// inlineSecret words the problem of an unknown key that looks like a
// credential, or of an unknown table holding one (found among the
// document's key paths): an inline secret, reported under the secret's
// own key. Other unknown keys get confcheck's "unknown key".
func inlineSecret(paths [][]string) confcheck.UnknownFunc {
	return func(key []string) *FieldError {
		if secret := secretUnder(key, paths); secret != nil {
			return &FieldError{Field: strings.Join(secret, "."), Problem: msgInlineSecret}
		}
		return nil
	}
}

// secretUnder returns the first key path at or under the unknown key
// whose own part, or a part below the unknown key, looks like a
// credential; nil when none does.
func secretUnder(key []string, paths [][]string) []string {
	if len(key) == 0 {
		return nil
	}
	if looksSecret(key[len(key)-1]) {
		return key
	}
	for _, p := range paths {
		if len(p) <= len(key) || !hasPrefix(p, key) {
			continue
		}
		for _, part := range p[len(key):] {
			if looksSecret(part) {
				return p
			}
		}
	}
	return nil
}

func hasPrefix(p, prefix []string) bool {
	for i := range prefix {
		if p[i] != prefix[i] {
			return false
		}
	}
	return true
}

// secretWords are the words, and secretSuffixes the endings of words, of
// a key named like a credential ("api_key", "apiKey", "token",
// "client_secret", "password"). Only unknown keys are judged, so the
// known api_key_env and api_key_file never are.
var (
	secretWords    = []string{"keys", "tokens", "secrets", "passwd", "passphrase", "credential", "credentials", "bearer"}
	secretSuffixes = []string{"key", "token", "secret", "password"}
)

// looksSecret reports whether key, split into words on anything but
// letters and digits and lower-cased, has a word named like a credential.
func looksSecret(key string) bool {
	words := strings.FieldsFunc(strings.ToLower(key), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	for _, w := range words {
		for _, s := range secretWords {
			if w == s {
				return true
			}
		}
		for _, s := range secretSuffixes {
			if strings.HasSuffix(w, s) {
				return true
			}
		}
	}
	return false
}

// engineOrder returns the engine ids of the document (its key paths) in
// the order they first appear ([engines.z] before [engines.a] gives z,
// a), however they are written: tables, dotted keys or inline tables.
func engineOrder(paths [][]string) []string {
	var ids []string
	for _, p := range paths {
		if len(p) >= 2 && p[0] == "engines" && !slices.Contains(ids, p[1]) {
			ids = append(ids, p[1])
		}
	}
	return ids
}
