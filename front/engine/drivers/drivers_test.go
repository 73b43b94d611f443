package drivers

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/arxiv"
	"github.com/rypsok/rypsok/front/engine/brave"
	"github.com/rypsok/rypsok/front/engine/duckduckgo"
	"github.com/rypsok/rypsok/front/engine/gdelt"
	"github.com/rypsok/rypsok/front/engine/hackernews"
	"github.com/rypsok/rypsok/front/engine/marginalia"
	"github.com/rypsok/rypsok/front/engine/searxng"
	"github.com/rypsok/rypsok/front/engine/stackexchange"
	"github.com/rypsok/rypsok/front/engine/wikipedia"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// testConfig is a configuration every driver accepts.
var testConfig = engine.Config{
	Credential: "test-key",
	UserAgent:  "rypsok/test (+https://github.com/rypsok/rypsok; ops@example.org)",
	Languages:  []string{"en", "ja"},
}

// testEndpoint is the endpoint of the types without a provider of their
// own (Descriptor.EndpointRequired).
const testEndpoint = "https://searx.example.org"

// configFor returns testConfig for an engine of type typ: with
// testEndpoint when the type requires an endpoint.
func configFor(typ string) engine.Config {
	cfg := testConfig
	if d, _ := Lookup(typ); d.EndpointRequired() {
		cfg.Endpoint = testEndpoint
	}
	return cfg
}

// TestRegistry checks the registry itself: every line a distinct type
// that a configuration can name, Types and Lookup agreeing, and a
// looked-up descriptor the caller's own.
func TestRegistry(t *testing.T) {
	types := Types()
	if len(types) != len(registry) || !slices.IsSorted(types) || len(slices.Compact(slices.Clone(types))) != len(types) {
		t.Fatalf("Types() = %v: want the %d registered types, sorted, each once", types, len(registry))
	}
	for _, typ := range types {
		d, ok := Lookup(typ)
		if !ok || d.Type != typ || d.New == nil || !contract.ValidEngineID(typ) {
			t.Errorf("Lookup(%q) = %+v, %v", typ, d, ok)
		}
		if len(d.Categories) > 0 {
			d.Categories[0] = "changed"
		}
		if len(d.Properties.TimeRanges) > 0 {
			d.Properties.TimeRanges[0] = "changed"
		}
		if again, _ := Lookup(typ); slices.Contains(again.Categories, "changed") || slices.Contains(again.Properties.TimeRanges, "changed") {
			t.Errorf("Lookup(%q): a change to one descriptor shows in the next", typ)
		}
	}
	for _, typ := range []string{"", "google", "Wikipedia", " wikipedia"} {
		if d, ok := Lookup(typ); ok || d.Type != "" {
			t.Errorf("Lookup(%q) = %+v, %v; want no type", typ, d, ok)
		}
	}
}

// TestDescriptors checks each type's row: its key, categories,
// capabilities, provider endpoints and whether it scrapes. The keyless
// types with official interfaces have a provider of their own; SearXNG
// has none (the instance is the operator's); DuckDuckGo alone scrapes,
// and does not send safe search.
func TestDescriptors(t *testing.T) {
	general, news, science, it := response.CategoryGeneral, response.CategoryNews, response.CategoryScience, response.CategoryIT
	tests := []struct {
		typ        string
		keyEnv     string
		categories []response.Category
		caps       engine.Capabilities
		endpoints  []string // for the languages en and ja
		scraping   bool
	}{
		{wikipedia.Type, "", []response.Category{general, science}, engine.Capabilities{Language: true}, []string{"https://en.wikipedia.org", "https://ja.wikipedia.org"}, false},
		{brave.Type, "BRAVE_API_KEY", []response.Category{general, news}, engine.Capabilities{Language: true, Region: true, SafeSearch: true, TimeRange: true}, []string{"https://api.search.brave.com"}, false},
		{searxng.Type, "", []response.Category{general}, engine.Capabilities{Language: true, SafeSearch: true, TimeRange: true}, nil, false},
		{stackexchange.Type, "", []response.Category{it}, engine.Capabilities{Language: true, TimeRange: true}, []string{"https://api.stackexchange.com"}, false},
		{arxiv.Type, "", []response.Category{science}, engine.Capabilities{TimeRange: true}, []string{"https://export.arxiv.org"}, false},
		{marginalia.Type, "", []response.Category{general}, engine.Capabilities{SafeSearch: true}, []string{"https://api2.marginalia-search.com"}, false},
		{duckduckgo.Type, "", []response.Category{general}, engine.Capabilities{Language: true, Region: true, TimeRange: true}, []string{"https://html.duckduckgo.com"}, true},
		{gdelt.Type, "", []response.Category{news, general}, engine.Capabilities{Language: true, TimeRange: true}, []string{"https://api.gdeltproject.org"}, false},
		{hackernews.Type, "", []response.Category{it, news}, engine.Capabilities{TimeRange: true}, []string{"https://hn.algolia.com"}, false},
	}
	if len(tests) != len(registry) {
		t.Errorf("%d rows for %d registered types", len(tests), len(registry))
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			d, ok := Lookup(tt.typ)
			if !ok {
				t.Fatalf("type %s is not registered", tt.typ)
			}
			if d.KeyEnv != tt.keyEnv || d.Keyed() != (tt.keyEnv != "") || d.Scraping != tt.scraping {
				t.Errorf("key %q scraping %v, want %q %v", d.KeyEnv, d.Scraping, tt.keyEnv, tt.scraping)
			}
			if !slices.Equal(d.Categories, tt.categories) || d.Capabilities != tt.caps {
				t.Errorf("categories %v capabilities %+v, want %v %+v", d.Categories, d.Capabilities, tt.categories, tt.caps)
			}
			if got := d.DefaultEndpoints([]string{"en", "ja"}); !slices.Equal(got, tt.endpoints) || d.EndpointRequired() != (tt.endpoints == nil) {
				t.Errorf("endpoints %q (required: %v), want %q", got, d.EndpointRequired(), tt.endpoints)
			}
			for _, c := range d.Categories {
				if !slices.Contains(response.Categories(), c) {
					t.Errorf("unknown default category %q", c)
				}
			}
			for _, u := range d.DefaultEndpoints([]string{"en", "nb", "zh-tw"}) {
				if !strings.HasPrefix(u, "https://") {
					t.Errorf("default endpoint %q is not https", u)
				}
			}
		})
	}
}

// TestDescriptorProperties checks that a descriptor's Properties are what
// the driver built from the configuration declares, but for Languages,
// which may depend on the configured languages (Wikipedia's), and that
// the time_range capability is the Properties' TimeRanges.
func TestDescriptorProperties(t *testing.T) {
	for _, typ := range Types() {
		t.Run(typ, func(t *testing.T) {
			d, _ := Lookup(typ)
			drv, err := New(typ, configFor(typ))
			if err != nil {
				t.Fatal(err)
			}
			built, described := drv.Properties(), d.Properties
			if d.Capabilities.TimeRange != (len(built.TimeRanges) > 0) {
				t.Errorf("the time_range capability is %v, the driver's TimeRanges %v", d.Capabilities.TimeRange, built.TimeRanges)
			}
			if described.Languages != nil && !described.Languages("en") {
				t.Errorf("the descriptor's Languages(\"en\") is false")
			}
			built.Languages, described.Languages = nil, nil
			if !reflect.DeepEqual(built, described) {
				t.Errorf("the driver declares %+v, its descriptor %+v", built, described)
			}
		})
	}
}

// TestDriversLinkNoConfiguration checks that no package of front/engine
// links the configuration (front/config) or what it links (the TOML
// decoder, the logger): a driver is described by its own descriptor, and
// the configuration consults the registry, never the other way round.
func TestDriversLinkNoConfiguration(t *testing.T) {
	const module = "github.com/rypsok/rypsok"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Deps " "}}`, module+"/front/engine/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < len(registry)+2 {
		t.Fatalf("go list listed only %d packages", len(lines))
	}
	for _, line := range lines {
		pkg, deps, _ := strings.Cut(line, "|")
		for _, dep := range strings.Fields(deps) {
			for _, banned := range []string{module + "/front/config", "github.com/pelletier/go-toml", "github.com/rs/zerolog"} {
				if strings.HasPrefix(dep, banned) {
					t.Errorf("%s links %s", pkg, dep)
				}
			}
		}
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
		{"gdelt builds with nothing", gdelt.Type, engine.Config{}, nil},
		{"hackernews builds with nothing", hackernews.Type, engine.Config{}, nil},
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
	for _, typ := range Types() {
		t.Run(typ, func(t *testing.T) {
			d, err := New(typ, configFor(typ))
			if err != nil {
				t.Fatal(err)
			}
			p := d.Properties()
			if p.RatePerSecond <= 0 || p.Burst < 1 || p.Concurrency < 1 {
				t.Errorf("pacing %v/s burst %d concurrency %d: every engine is paced", p.RatePerSecond, p.Burst, p.Concurrency)
			}
			if p.MaxRatePerSecond < p.RatePerSecond || p.MaxBurst < p.Burst {
				t.Errorf("pacing %v/s burst %d above the provider's maximum %v/s burst %d", p.RatePerSecond, p.Burst, p.MaxRatePerSecond, p.MaxBurst)
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
	for _, typ := range Types() {
		t.Run(typ, func(t *testing.T) {
			rows := recordRows(t, filepath.Join(docs, "engines", typ+".md"))
			d, err := New(typ, configFor(typ))
			if err != nil {
				t.Fatal(err)
			}
			p := d.Properties()
			want := map[string]string{
				"RatePerSecond":    strconv.FormatFloat(p.RatePerSecond, 'f', -1, 64),
				"Burst":            strconv.Itoa(p.Burst),
				"MaxRatePerSecond": strconv.FormatFloat(p.MaxRatePerSecond, 'f', -1, 64),
				"MaxBurst":         strconv.Itoa(p.MaxBurst),
				"Concurrency":      strconv.Itoa(p.Concurrency),
				"MaxQueryChars":    strconv.Itoa(p.MaxQueryChars),
				"TimeRanges":       list(p.TimeRanges),
				"Cacheable":        yesNo(p.Cacheable),
				"Attribution":      yesNo(p.Attribution),
				"MaxBodyBytes":     strconv.FormatInt(p.MaxBodyBytes, 10),
				"Languages":        languages(p, testConfig.Languages),
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

// docs is the repository's documentation directory.
var docs = filepath.Join("..", "..", "..", "docs")

// TestDocsNameTheRegistry checks that the documentation names the
// registry's types and no other: one admission record
// docs/engines/<type>.md per type, titled with its type; the row of
// engines.<id>.type in docs/configuration.md lists them all; and every
// type = "..." of an example in these pages names one.
func TestDocsNameTheRegistry(t *testing.T) {
	records, err := filepath.Glob(filepath.Join(docs, "engines", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, path := range records {
		typ := strings.TrimSuffix(filepath.Base(path), ".md")
		recorded = append(recorded, typ)
		page := readDoc(t, path)
		if title, _, _ := strings.Cut(page, "\n"); !strings.Contains(title, "(type `"+typ+"`)") {
			t.Errorf("%s: title %q does not name the type %s", path, title, typ)
		}
		checkExampleTypes(t, path, page)
	}
	slices.Sort(recorded)
	if !slices.Equal(recorded, Types()) {
		t.Errorf("docs/engines has records of %v, the registry the types %v", recorded, Types())
	}

	path := filepath.Join(docs, "configuration.md")
	page := readDoc(t, path)
	checkExampleTypes(t, path, page)
	const key = "| `engines.<id>.type` |"
	var listed []string
	for _, line := range strings.Split(page, "\n") {
		if cells := strings.Split(line, "|"); strings.HasPrefix(line, key) && len(cells) > 3 {
			for _, m := range codeSpanRE.FindAllStringSubmatch(cells[3], -1) {
				listed = append(listed, m[1])
			}
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, Types()) {
		t.Errorf("configuration.md's row of engines.<id>.type lists %v, the registry has %v", listed, Types())
	}
}

// The code spans of a Markdown line, and the type lines of a TOML example.
var (
	codeSpanRE = regexp.MustCompile("`([^`]+)`")
	typeLineRE = regexp.MustCompile(`(?m)^\s*type\s*=\s*"([^"]*)"`)
)

// checkExampleTypes checks that every type = "..." line of page names a
// registered type.
func checkExampleTypes(t *testing.T, path, page string) {
	t.Helper()
	for _, m := range typeLineRE.FindAllStringSubmatch(page, -1) {
		if _, ok := Lookup(m[1]); !ok {
			t.Errorf("%s: an example names the type %q, which is not registered", path, m[1])
		}
	}
}

// readDoc returns the page at path.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordRows returns the rows "| `Field` | value | notes |" of a record's
// properties table: value by field.
func recordRows(t *testing.T, path string) map[string]string {
	t.Helper()
	rows := map[string]string{}
	for _, line := range strings.Split(readDoc(t, path), "\n") {
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
