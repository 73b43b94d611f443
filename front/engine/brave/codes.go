package brave

import "strings"

// The code tables below are those of Brave's web search reference, as
// Brave's own MCP server (brave/brave-search-mcp-server,
// src/tools/web/params.ts) enumerates them; a value outside them is
// answered 422.

// searchLangs are Brave's search_lang values.
var searchLangs = set(
	"ar", "eu", "bn", "bg", "ca", "zh-hans", "zh-hant", "hr", "cs", "da",
	"nl", "en", "en-gb", "et", "fi", "fr", "gl", "de", "gu", "he", "hi",
	"hu", "is", "it", "jp", "kn", "ko", "lv", "lt", "ms", "ml", "mr", "nb",
	"pl", "pt-br", "pt-pt", "pa", "ro", "ru", "sr", "sk", "sl", "es", "sv",
	"ta", "te", "th", "tr", "uk", "vi",
)

// langAliases maps a configured language, or its primary subtag, to
// Brave's code where they differ: Brave writes Japanese "jp", takes
// Chinese only by script (zh alone is refused), and has no bare pt or no.
// The likely script or region of a bare code is CLDR's (zh → Hans,
// pt → Brazil).
var langAliases = map[string]string{
	"ja":    "jp",
	"zh":    "zh-hans",
	"zh-cn": "zh-hans",
	"zh-sg": "zh-hans",
	"zh-my": "zh-hans",
	"zh-tw": "zh-hant",
	"zh-hk": "zh-hant",
	"zh-mo": "zh-hant",
	"pt":    "pt-br",
	"no":    "nb",
	"iw":    "he",
}

// countries are Brave's country values (ALL: no country).
var countries = set(
	"AR", "AU", "AT", "BE", "BR", "CA", "CL", "DK", "FI", "FR", "DE", "HK",
	"IN", "ID", "IT", "JP", "KR", "MY", "MX", "NL", "NZ", "NO", "CN", "PL",
	"PT", "PH", "RU", "SA", "ZA", "ES", "SE", "CH", "TW", "TR", "GB", "US",
)

// searchLang returns Brave's search_lang for a configured language: the
// language itself when Brave has it ("en-gb", "pt-pt"), else its alias
// ("ja" → "jp", "zh-tw" → "zh-hant"), else its primary subtag's code
// ("de-at" → "de", "ja-jp" → "jp"); ok is false when Brave has none.
func searchLang(lang string) (code string, ok bool) {
	primary, _, _ := strings.Cut(lang, "-")
	for _, l := range []string{lang, primary} {
		if searchLangs[l] {
			return l, true
		}
		if a, ok := langAliases[l]; ok {
			return a, true
		}
	}
	return "", false
}

// country returns Brave's country for a region: the region when Brave
// has it, else ALL (results of every country) rather than a 422.
func country(region string) string {
	if countries[region] {
		return region
	}
	return "ALL"
}

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}
