package drivers

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/arxiv"
	"github.com/rypsok/rypsok/front/engine/brave"
	"github.com/rypsok/rypsok/front/engine/duckduckgo"
	"github.com/rypsok/rypsok/front/engine/marginalia"
	"github.com/rypsok/rypsok/front/engine/searxng"
	"github.com/rypsok/rypsok/front/engine/stackexchange"
	"github.com/rypsok/rypsok/front/engine/wikipedia"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// testConfig is a configuration every driver accepts.
var testConfig = engine.Config{
	Credential: "test-key",
	UserAgent:  "rypsok/test (+https://github.com/rypsok/rypsok; ops@example.org)",
	Languages:  []string{"en", "ja"},
}

// testEndpoint is the endpoint of the types without a provider of their
// own (config's Type.EndpointRequired).
const testEndpoint = "https://searx.example.org"

// configFor returns testConfig for an engine of type typ: with
// testEndpoint when the type requires an endpoint.
func configFor(typ string) engine.Config {
	cfg := testConfig
	if t, _ := config.LookupType(typ); t.EndpointRequired {
		cfg.Endpoint = testEndpoint
	}
	return cfg
}

// TestTypesMatchConfig checks that the registry and config's type table
// name the same engine types.
func TestTypesMatchConfig(t *testing.T) {
	var names []string
	for n := range Factories {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := config.TypeNames(); !slices.Equal(names, want) {
		t.Errorf("Factories has %v, config's type table %v", names, want)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name string
		typ  string
		cfg  engine.Config
		want error // nil: builds
	}{
		{"wikipedia builds", wikipedia.Type, testConfig, nil},
		{"brave builds with a key", brave.Type, testConfig, nil},
		{"searxng builds with an endpoint", searxng.Type, configFor(searxng.Type), nil},
		{"brave without a key gives the driver's error", brave.Type, engine.Config{UserAgent: "ua"}, brave.ErrNoCredential},
		{"searxng without an endpoint gives the driver's error", searxng.Type, testConfig, searxng.ErrNoEndpoint},
		{"wikipedia without a User-Agent gives the driver's error", wikipedia.Type, engine.Config{Languages: []string{"en"}}, wikipedia.ErrNoUserAgent},
		{"duckduckgo builds with a User-Agent", duckduckgo.Type, testConfig, nil},
		{"duckduckgo without a User-Agent gives the driver's error", duckduckgo.Type, engine.Config{Languages: []string{"en"}}, duckduckgo.ErrNoUserAgent},
		{"stackexchange builds with nothing", stackexchange.Type, engine.Config{}, nil},
		{"arxiv builds with nothing", arxiv.Type, engine.Config{}, nil},
		{"marginalia builds with nothing", marginalia.Type, engine.Config{}, nil},
		{"stackexchange with an invalid endpoint gives the driver's error", stackexchange.Type, engine.Config{Endpoint: "ftp://x"}, engine.ErrEndpoint},
		{"an unknown type is refused", "google", testConfig, ErrUnknownType},
		{"the empty type is refused", "", testConfig, ErrUnknownType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := New(tt.typ, tt.cfg)
			if tt.want == nil {
				if err != nil || d == nil {
					t.Fatalf("New(%q) = %v, %v; want a driver", tt.typ, d, err)
				}
				return
			}
			if !errors.Is(err, tt.want) || d != nil {
				t.Fatalf("New(%q) = %v, %v; want error %v", tt.typ, d, err, tt.want)
			}
		})
	}
}

// TestPropertiesWithinLimits checks what the pipeline relies on.
func TestPropertiesWithinLimits(t *testing.T) {
	for typ := range Factories {
		t.Run(typ, func(t *testing.T) {
			d, err := New(typ, configFor(typ))
			if err != nil {
				t.Fatal(err)
			}
			p := d.Properties()
			if p.RatePerSecond <= 0 || p.Burst < 1 || p.Concurrency < 1 {
				t.Errorf("pacing %v/s burst %d concurrency %d: every engine is paced", p.RatePerSecond, p.Burst, p.Concurrency)
			}
			if p.MaxQueryChars < 1 || p.MaxQueryChars > limits.S1QueryMaxChars {
				t.Errorf("MaxQueryChars %d outside 1..LIM-S1", p.MaxQueryChars)
			}
			if p.MaxBodyBytes <= 0 || p.MaxBodyBytes > limits.F3BodyBytes {
				t.Errorf("MaxBodyBytes %d outside 1..LIM-F3", p.MaxBodyBytes)
			}
			for _, r := range p.TimeRanges {
				if !slices.Contains(response.TimeRanges(), response.TimeRange(r)) {
					t.Errorf("TimeRanges has %q, not a time_range value", r)
				}
			}
			if p.Languages != nil && !p.Languages("en") {
				t.Errorf("Languages(\"en\") is false")
			}
		})
	}
}

// TestAdmissionRecords checks that every driver ships with its admission
// record (REQ-CMP-001), docs/engines/<type>.md, and that the record's
// properties table states the driver's Properties value for value.
func TestAdmissionRecords(t *testing.T) {
	for typ := range Factories {
		t.Run(typ, func(t *testing.T) {
			rows := recordRows(t, filepath.Join("..", "..", "..", "docs", "engines", typ+".md"))
			d, err := New(typ, configFor(typ))
			if err != nil {
				t.Fatal(err)
			}
			p := d.Properties()
			want := map[string]string{
				"RatePerSecond": strconv.FormatFloat(p.RatePerSecond, 'f', -1, 64),
				"Burst":         strconv.Itoa(p.Burst),
				"Concurrency":   strconv.Itoa(p.Concurrency),
				"MaxQueryChars": strconv.Itoa(p.MaxQueryChars),
				"TimeRanges":    list(p.TimeRanges),
				"Cacheable":     yesNo(p.Cacheable),
				"Attribution":   yesNo(p.Attribution),
				"MaxBodyBytes":  strconv.FormatInt(p.MaxBodyBytes, 10),
				"Languages":     languages(p, testConfig.Languages),
			}
			fields := reflect.TypeFor[engine.Properties]()
			for i := range fields.NumField() {
				name := fields.Field(i).Name
				got, ok := rows[name]
				switch {
				case !ok:
					t.Errorf("the record has no row for %s", name)
				case got != want[name]:
					t.Errorf("the record says %s = %q, the driver %q", name, got, want[name])
				}
			}
		})
	}
}

// recordRows returns the rows "| `Field` | value | notes |" of a record's
// properties table: value by field.
func recordRows(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("admission record: %v", err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		rows[name] = strings.TrimSpace(cells[2])
	}
	return rows
}

func list(ranges []string) string {
	if len(ranges) == 0 {
		return "none"
	}
	return strings.Join(ranges, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// languages names how p honors languages, as records write it:
// "configured" (exactly the configured ones), "every" (nil), "mapped"
// (the provider's own set: beyond the configured ones, or short of them).
func languages(p engine.Properties, configured []string) string {
	if p.Languages == nil {
		return "every"
	}
	for _, l := range []string{"de", "fr", "ko", "pt-br"} {
		if !slices.Contains(configured, l) && p.Languages(l) {
			return "mapped"
		}
	}
	for _, l := range configured {
		if !p.Languages(l) {
			return "mapped" // the provider's set lacks a configured one (English only)
		}
	}
	return "configured"
}
