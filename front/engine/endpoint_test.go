package engine

import (
	"errors"
	"testing"
)

func TestProviderURL(t *testing.T) {
	const base = "https://en.wikipedia.org"
	tests := []struct {
		name, endpoint, base, path, want string
	}{
		{"no endpoint is the provider's own", "", base, "/w/api.php", "https://en.wikipedia.org/w/api.php"},
		{"an endpoint's path prefixes the provider's", "http://127.0.0.1:8080/wiki", base, "/w/api.php", "http://127.0.0.1:8080/wiki/w/api.php"},
		{"a trailing slash adds no empty segment", "http://127.0.0.1:8080/wiki/", base, "/w/api.php", "http://127.0.0.1:8080/wiki/w/api.php"},
		{"a root endpoint replaces scheme, host and port only", "http://127.0.0.1:8080", "https://api.search.brave.com", "/res/v1/web/search", "http://127.0.0.1:8080/res/v1/web/search"},
		{"an https endpoint with a deeper prefix", "https://proxy.example.org/a/b", "https://api.search.brave.com", "/res/v1/web/search", "https://proxy.example.org/a/b/res/v1/web/search"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ProviderURL(tt.endpoint, tt.base, tt.path)
			if err != nil || u.String() != tt.want {
				t.Fatalf("ProviderURL(%q, %q, %q) = %v, %v; want %s", tt.endpoint, tt.base, tt.path, u, err, tt.want)
			}
		})
	}
}

func TestProviderURLRefuses(t *testing.T) {
	for _, endpoint := range []string{
		"ftp://127.0.0.1/",
		"/relative",
		"127.0.0.1:8080",
		"http://",
		"http://u:p@127.0.0.1/",
		"http://127.0.0.1/?q=1",
		"http://127.0.0.1/?",
		"http://127.0.0.1/#top",
		"http://[::1",
		"mailto:ops@example.org",
	} {
		if u, err := ProviderURL(endpoint, "https://en.wikipedia.org", "/w/api.php"); !errors.Is(err, ErrEndpoint) {
			t.Errorf("ProviderURL(%q) = %v, %v; want ErrEndpoint", endpoint, u, err)
		}
	}
}
