package config

import (
	"slices"
	"sort"
	"strings"

	"github.com/rypsok/rypsok/front/response"
)

// Categories returns the known search categories (response.Categories),
// in the order tools list them.
func Categories() []string {
	out := make([]string, len(response.Categories()))
	for i, c := range response.Categories() {
		out[i] = string(c)
	}
	return out
}

// The engine types (drivers) rypsok knows.
const (
	typeWikipedia = "wikipedia"
	typeBrave     = "brave"
	typeSearXNG   = "searxng"
)

// Type is what rypsok knows of an engine type (a driver) before any
// engine of it is configured: one row of the type table.
type Type struct {
	// Name is the type, as engines.<id>.type writes it.
	Name string
	// Keyed reports whether an engine of this type needs a credential; it
	// stays EngineNoCredential until one is read.
	Keyed bool
	// KeyEnv is the environment variable read for the credential of an
	// engine that sets neither api_key_env nor api_key_file; "" for an
	// unkeyed type.
	KeyEnv string
	// Categories are the categories of an engine that sets none.
	Categories []string
	// Capabilities are the request parameters the provider honors.
	Capabilities Capabilities
	// EndpointRequired reports whether an engine of this type must set
	// endpoint: the type has no provider of its own (a SearXNG instance is
	// the operator's), so DefaultEndpoints gives none.
	EndpointRequired bool
	// Scraping reports whether the driver reads pages made for people
	// rather than an official interface (REQ-ENG-013): an engine of it is
	// refused unless [scraping] enabled = true, and never in the default
	// set.
	Scraping bool

	// baseURL is the provider's base URL, "" for a type whose endpoint is
	// required; when perLanguage, "{wiki}" stands for the host label of
	// each configured language.
	baseURL     string
	perLanguage bool
	// wikiLabels maps a language's primary subtag to its host label where
	// they differ ("nb" is served by no.wikipedia.org).
	wikiLabels map[string]string
}

// Capabilities are the request parameters a provider honors; a parameter
// it does not honor is skipped (the engine_skipped notice).
type Capabilities struct {
	Language   bool
	Region     bool
	SafeSearch bool
	TimeRange  bool
}

// types is the type table: a driver adds one row.
var types = map[string]Type{
	typeWikipedia: {
		Name:         typeWikipedia,
		Categories:   []string{string(response.CategoryGeneral), string(response.CategoryScience)},
		Capabilities: Capabilities{Language: true},
		baseURL:      "https://{wiki}.wikipedia.org",
		perLanguage:  true,
		wikiLabels:   map[string]string{"nb": "no"},
	},
	typeBrave: {
		Name:         typeBrave,
		Keyed:        true,
		KeyEnv:       "BRAVE_API_KEY",
		Categories:   []string{string(response.CategoryGeneral), string(response.CategoryNews)},
		Capabilities: Capabilities{Language: true, Region: true, SafeSearch: true, TimeRange: true},
		baseURL:      "https://api.search.brave.com",
	},
	typeSearXNG: {
		Name:             typeSearXNG,
		Categories:       []string{string(response.CategoryGeneral)},
		Capabilities:     Capabilities{Language: true, SafeSearch: true, TimeRange: true},
		EndpointRequired: true,
	},
	"duckduckgo": { // docs/engines/duckduckgo.md; safe search is not sent
		Name:         "duckduckgo",
		Categories:   []string{string(response.CategoryGeneral)},
		Capabilities: Capabilities{Language: true, Region: true, TimeRange: true},
		Scraping:     true,
		baseURL:      "https://html.duckduckgo.com",
	},
	typeStackExchange: { // docs/engines/stackexchange.md: Stack Overflow, a localized site per language
		Name:         typeStackExchange,
		Categories:   []string{string(response.CategoryIT)},
		Capabilities: Capabilities{Language: true, TimeRange: true},
		baseURL:      "https://api.stackexchange.com",
	},
	typeArXiv: { // docs/engines/arxiv.md: English only, no language parameter
		Name:         typeArXiv,
		Categories:   []string{string(response.CategoryScience)},
		Capabilities: Capabilities{TimeRange: true},
		baseURL:      "https://export.arxiv.org",
	},
	typeMarginalia: { // docs/engines/marginalia.md: the shared "public" key, English only
		Name:         typeMarginalia,
		Categories:   []string{string(response.CategoryGeneral)},
		Capabilities: Capabilities{SafeSearch: true},
		baseURL:      "https://api2.marginalia-search.com",
	},
}

// The keyless engine types with official interfaces added by issue 8.
const (
	typeStackExchange = "stackexchange"
	typeArXiv         = "arxiv"
	typeMarginalia    = "marginalia"
)

// LookupType returns the row of the type table named name; ok is false
// for an unknown type.
func LookupType(name string) (t Type, ok bool) {
	t, ok = types[name]
	t.Categories = slices.Clone(t.Categories)
	return t, ok
}

// TypeNames returns the known engine types, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DefaultEndpoints returns the provider's own base URLs for the search
// languages: one per distinct language host for a per-language provider
// (Wikipedia: "en" and "en-gb" both give https://en.wikipedia.org), else
// the one base URL; none for a type whose endpoint is required. The
// first is the engine's main endpoint.
func (t Type) DefaultEndpoints(languages []string) []string {
	switch {
	case t.baseURL == "":
		return nil
	case !t.perLanguage:
		return []string{t.baseURL}
	}
	var urls []string
	for _, lang := range languages {
		u := strings.Replace(t.baseURL, "{wiki}", t.wikiLabel(lang), 1)
		if !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	return urls
}

// wikiLabel returns the host label of a language: its primary subtag
// ("zh-tw" gives "zh"), or the label the table maps it to.
func (t Type) wikiLabel(lang string) string {
	primary, _, _ := strings.Cut(lang, "-")
	if label, ok := t.wikiLabels[primary]; ok {
		return label
	}
	return primary
}
