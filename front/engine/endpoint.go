package engine

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// English reports whether the language code lang is English, with any
// region or script ("en", "en-GB"): the one language of a provider
// written in English only.
func English(lang string) bool {
	return PrimarySubtag(lang) == "en"
}

// PrimarySubtag returns a language tag's primary subtag, lower-cased:
// "pt-BR" gives "pt". Providers that know a language by its primary
// subtag alone read it so.
func PrimarySubtag(lang string) string {
	primary, _, _ := strings.Cut(strings.ToLower(lang), "-")
	return primary
}

// WebURL reports whether u is an absolute http or https URL, as a result
// must be: drivers drop a result whose URL is not.
func WebURL(u string) bool {
	rest, ok := strings.CutPrefix(u, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(u, "http://")
	}
	return ok && rest != "" && rest[0] != '/'
}

// ErrEndpoint is wrapped by ProviderURL's errors.
var ErrEndpoint = errors.New("engine: invalid endpoint")

// ProviderURL returns the URL of one of a provider's resources: path
// (such as "/w/api.php") under base, the provider's own base URL
// ("https://en.wikipedia.org"). A non-empty endpoint, the operator's
// replacement of the base URL (Config.Endpoint), replaces scheme, host and
// port and prefixes path with its own path (docs/design/decisions.md,
// engine endpoints): endpoint
// "http://127.0.0.1:8080/wiki" and path "/w/api.php" give
// "http://127.0.0.1:8080/wiki/w/api.php". The URL used must be absolute
// http or https, with a host and without user information, query or
// fragment; anything else wraps ErrEndpoint.
func ProviderURL(endpoint, base, path string) (*url.URL, error) {
	raw := base
	if endpoint != "" {
		raw = endpoint
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %q does not parse", ErrEndpoint, raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%w: %q: want an http or https URL", ErrEndpoint, raw)
	case u.Host == "" || u.Opaque != "":
		return nil, fmt.Errorf("%w: %q: no host", ErrEndpoint, raw)
	case u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, fmt.Errorf("%w: %q: user information, query or fragment", ErrEndpoint, raw)
	}
	return u.JoinPath(path), nil
}
