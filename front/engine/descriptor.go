package engine

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/rypsok/rypsok/front/response"
)

// LangPlaceholder stands, in the Descriptor.BaseURL of a provider with
// one host per language, for the host label of each configured language.
const LangPlaceholder = "{lang}"

// Descriptor is what rypsok knows of an engine type before any engine of
// it is configured. Each driver package returns its own (its Descriptor
// function); front/engine/drivers is the registry of them, which the
// configuration consults to check and complete an engine's table, so a
// type is described once, by its driver.
type Descriptor struct {
	// Type is the engine type, as engines.<id>.type writes it.
	Type string
	// BaseURL is the provider's base URL ("https://api.search.brave.com"),
	// which an engine's endpoint replaces; "" for a type without a
	// provider of its own (a SearXNG instance is the operator's), whose
	// engines must set endpoint. In the BaseURL of a provider with one
	// host per language, LangPlaceholder stands for a language's host
	// label: its primary subtag, or its entry in LangLabels.
	BaseURL string
	// LangLabels maps a language's primary subtag to its host label where
	// they differ (Wikipedia's "nb" is served by no.wikipedia.org); nil
	// for none.
	LangLabels map[string]string
	// KeyEnv is the environment variable read for the credential of an
	// engine that sets neither api_key_env nor api_key_file; "" for a
	// keyless type.
	KeyEnv string
	// Categories are the categories of an engine that sets none.
	Categories []response.Category
	// Capabilities are the request parameters the provider honors.
	Capabilities Capabilities
	// Scraping reports whether the driver reads pages made for people
	// rather than an official interface (REQ-ENG-013): such pages are not
	// offered to programs, so reading them is the operator's decision. An
	// engine of the type is refused unless [scraping] enabled = true, and
	// never in the default set.
	Scraping bool
	// Properties are what the driver declares of its engine
	// (Driver.Properties) before it is configured. Where they depend on the
	// configuration, the built driver's say more: Wikipedia's Languages is
	// nil here, and the built driver honors its configured languages only.
	Properties Properties
	// New builds a driver of the type.
	New Factory
}

// Capabilities are the request parameters a provider honors; a parameter
// it does not honor is skipped (the engine_skipped notice).
type Capabilities struct {
	Language   bool
	Region     bool
	SafeSearch bool
	TimeRange  bool
}

// Keyed reports whether an engine of the type needs a credential; it
// stays without one (no_credential) until one is read.
func (d Descriptor) Keyed() bool { return d.KeyEnv != "" }

// EndpointRequired reports whether an engine of the type must set
// endpoint: the type has no provider of its own, so DefaultEndpoints
// gives none.
func (d Descriptor) EndpointRequired() bool { return d.BaseURL == "" }

// DefaultEndpoints returns the provider's own base URLs for the search
// languages: one per distinct language host for a provider with one host
// per language (Wikipedia: "en" and "en-gb" both give
// https://en.wikipedia.org), else the one base URL; none for a type whose
// endpoint is required. The first is the engine's main endpoint.
func (d Descriptor) DefaultEndpoints(languages []string) []string {
	switch {
	case d.BaseURL == "":
		return nil
	case !strings.Contains(d.BaseURL, LangPlaceholder):
		return []string{d.BaseURL}
	}
	var urls []string
	for _, lang := range languages {
		u := strings.Replace(d.BaseURL, LangPlaceholder, d.langLabel(lang), 1)
		if !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	return urls
}

// langLabel returns the host label of a language: its primary subtag
// ("zh-tw" gives "zh"), or the label LangLabels maps it to.
func (d Descriptor) langLabel(lang string) string {
	primary := PrimarySubtag(lang)
	if label, ok := d.LangLabels[primary]; ok {
		return label
	}
	return primary
}

// URL is ProviderURL for a type with one provider base URL: endpoint
// (Config.Endpoint) or BaseURL, joined with path. Its errors name the
// type; a type without a base URL, or with one per language, has none.
func (d Descriptor) URL(endpoint, path string) (*url.URL, error) {
	if d.BaseURL == "" || strings.Contains(d.BaseURL, LangPlaceholder) {
		return nil, fmt.Errorf("%s: type %q has no single provider base URL", d.Type, d.Type)
	}
	u, err := ProviderURL(endpoint, d.BaseURL, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Type, err)
	}
	return u, nil
}
