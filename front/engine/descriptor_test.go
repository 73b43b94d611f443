package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// The descriptors of the tests: one base URL, one host per language, none.
var (
	single  = Descriptor{Type: "single", BaseURL: "https://api.example.org"}
	perLang = Descriptor{Type: "perlang", BaseURL: "https://" + LangPlaceholder + ".example.org", LangLabels: map[string]string{"nb": "no"}}
	none    = Descriptor{Type: "none"}
)

func TestDefaultEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     Descriptor
		langs []string
		want  []string
	}{
		{"one per language", perLang, []string{"en", "ja"}, []string{"https://en.example.org", "https://ja.example.org"}},
		{"the primary subtag", perLang, []string{"zh-tw", "pt-br"}, []string{"https://zh.example.org", "https://pt.example.org"}},
		{"a label the type maps", perLang, []string{"nb"}, []string{"https://no.example.org"}},
		{"one host for two regions", perLang, []string{"en", "en-gb", "zh-tw", "zh-cn"}, []string{"https://en.example.org", "https://zh.example.org"}},
		{"no language, no host", perLang, nil, nil},
		{"one base URL for every language", single, []string{"en", "ja"}, []string{"https://api.example.org"}},
		{"one base URL without a language", single, nil, []string{"https://api.example.org"}},
		{"none of its own", none, []string{"en", "ja"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.DefaultEndpoints(tc.langs); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestKeyedAndEndpointRequired(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		d                       Descriptor
		keyed, endpointRequired bool
	}{
		{"a keyed type with a provider", Descriptor{BaseURL: "https://api.example.org", KeyEnv: "EXAMPLE_KEY"}, true, false},
		{"a keyless type with a provider", single, false, false},
		{"a keyless type with a host per language", perLang, false, false},
		{"a type without a provider", none, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.Keyed(); got != tc.keyed {
				t.Errorf("Keyed: got %v, want %v", got, tc.keyed)
			}
			if got := tc.d.EndpointRequired(); got != tc.endpointRequired {
				t.Errorf("EndpointRequired: got %v, want %v", got, tc.endpointRequired)
			}
		})
	}
}

func TestDescriptorURL(t *testing.T) {
	for _, tc := range []struct {
		name, endpoint string
		d              Descriptor
		want           string // "": an error
		wantErr        string // in the error
	}{
		{"the provider's own", "", single, "https://api.example.org/res/search", ""},
		{"at an endpoint", "http://127.0.0.1:8080", single, "http://127.0.0.1:8080/res/search", ""},
		{"at an endpoint with a path", "http://127.0.0.1:8080/p", single, "http://127.0.0.1:8080/p/res/search", ""},
		{"an invalid endpoint names the type", "ftp://x", single, "", "single: engine: invalid endpoint"},
		{"a type without a base URL", "", none, "", "no single provider base URL"},
		{"a type with a host per language", "", perLang, "", "no single provider base URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := tc.d.URL(tc.endpoint, "/res/search")
			if tc.want != "" {
				if err != nil || u.String() != tc.want {
					t.Fatalf("got %v, %v; want %s", u, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, %v; want an error with %q", u, err, tc.wantErr)
			}
		})
	}
	if _, err := single.URL("ftp://x", "/s"); !errors.Is(err, ErrEndpoint) {
		t.Errorf("an invalid endpoint: %v, want ErrEndpoint", err)
	}
}
