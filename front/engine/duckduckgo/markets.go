package duckduckgo

import "strings"

// market is one of DuckDuckGo's regions: its kl value, the ISO 3166
// country it stands for ("" for Arabia, Catalan and Latin America, which
// are none) and the language of its results, as rypsok writes languages
// (the primary subtag; "zh-hans" and "zh-hant" for the two scripts).
type market struct {
	kl, country, lang string
}

// markets are the kl values of DuckDuckGo's region selector, in its
// order (docs/engines/duckduckgo.md names the sources). "wt-wt" (no
// region) is not one: without a language and a region, kl is not sent and
// DuckDuckGo's default applies.
var markets = []market{
	{"xa-ar", "", "ar"}, {"xa-en", "", "en"}, {"ar-es", "AR", "es"}, {"au-en", "AU", "en"},
	{"at-de", "AT", "de"}, {"be-fr", "BE", "fr"}, {"be-nl", "BE", "nl"}, {"br-pt", "BR", "pt"},
	{"bg-bg", "BG", "bg"}, {"ca-en", "CA", "en"}, {"ca-fr", "CA", "fr"}, {"ct-ca", "", "ca"},
	{"cl-es", "CL", "es"}, {"cn-zh", "CN", "zh-hans"}, {"co-es", "CO", "es"}, {"hr-hr", "HR", "hr"},
	{"cz-cs", "CZ", "cs"}, {"dk-da", "DK", "da"}, {"ee-et", "EE", "et"}, {"fi-fi", "FI", "fi"},
	{"fr-fr", "FR", "fr"}, {"de-de", "DE", "de"}, {"gr-el", "GR", "el"}, {"hk-tzh", "HK", "zh-hant"},
	{"hu-hu", "HU", "hu"}, {"in-en", "IN", "en"}, {"id-id", "ID", "id"}, {"id-en", "ID", "en"},
	{"ie-en", "IE", "en"}, {"il-he", "IL", "he"}, {"it-it", "IT", "it"}, {"jp-jp", "JP", "ja"},
	{"kr-kr", "KR", "ko"}, {"lv-lv", "LV", "lv"}, {"lt-lt", "LT", "lt"}, {"xl-es", "", "es"},
	{"my-ms", "MY", "ms"}, {"my-en", "MY", "en"}, {"mx-es", "MX", "es"}, {"nl-nl", "NL", "nl"},
	{"nz-en", "NZ", "en"}, {"no-no", "NO", "no"}, {"pe-es", "PE", "es"}, {"ph-en", "PH", "en"},
	{"ph-tl", "PH", "tl"}, {"pl-pl", "PL", "pl"}, {"pt-pt", "PT", "pt"}, {"ro-ro", "RO", "ro"},
	{"ru-ru", "RU", "ru"}, {"sg-en", "SG", "en"}, {"sk-sk", "SK", "sk"}, {"sl-sl", "SI", "sl"},
	{"za-en", "ZA", "en"}, {"es-es", "ES", "es"}, {"se-sv", "SE", "sv"}, {"ch-de", "CH", "de"},
	{"ch-fr", "CH", "fr"}, {"ch-it", "CH", "it"}, {"tw-tzh", "TW", "zh-hant"}, {"th-th", "TH", "th"},
	{"tr-tr", "TR", "tr"}, {"ua-uk", "UA", "uk"}, {"uk-en", "GB", "en"}, {"us-en", "US", "en"},
	{"ue-es", "US", "es"}, {"ve-es", "VE", "es"}, {"vn-vi", "VN", "vi"},
}

// homes are the markets of the languages whose first market is not their
// home: a language with no market in the region is searched there.
var homes = map[string]string{
	"en": "us-en", "es": "es-es", "pt": "pt-pt", "de": "de-de",
	"fr": "fr-fr", "nl": "nl-nl", "zh-hant": "tw-tzh",
}

// langAliases maps a primary subtag to the one markets use.
var langAliases = map[string]string{"nb": "no", "nn": "no", "fil": "tl", "iw": "he"}

// traditional lists the regions whose Chinese is written in the
// traditional script.
var traditional = map[string]bool{"TW": true, "HK": true, "MO": true}

// marketLang returns the language of a language code as markets write it,
// and its region subtag upper-cased ("" when it has none): "pt-br" gives
// "pt" and "BR", "zh-tw" "zh-hant" and "TW", "zh" "zh-hans", "nb" "no".
func marketLang(lang string) (l, region string) {
	parts := strings.Split(strings.ToLower(lang), "-")
	l = parts[0]
	if a, ok := langAliases[l]; ok {
		l = a
	}
	script := ""
	for _, p := range parts[1:] {
		switch {
		case len(p) == 2 && region == "":
			region = strings.ToUpper(p)
		case len(p) == 4 && script == "":
			script = p
		}
	}
	if l == "zh" {
		if script == "hant" || (script == "" && traditional[region]) {
			return "zh-hant", region
		}
		return "zh-hans", region
	}
	return l, region
}

// kl returns DuckDuckGo's kl for a language and a region (ISO 3166, ""
// for none): the market of the language in the language's own region
// subtag or else in region, else the language's home market; with no
// language, region's first market. ok is false for a language DuckDuckGo
// has no market in. kl is "" (not sent) when neither is given or the
// region has no market.
func kl(lang, region string) (string, bool) {
	if lang == "" {
		for _, m := range markets {
			if m.country != "" && m.country == region {
				return m.kl, true
			}
		}
		return "", true
	}
	l, own := marketLang(lang)
	for _, c := range []string{own, region} {
		for _, m := range markets {
			if c != "" && m.country == c && m.lang == l {
				return m.kl, true
			}
		}
	}
	if h, ok := homes[l]; ok {
		return h, true
	}
	for _, m := range markets {
		if m.lang == l {
			return m.kl, true
		}
	}
	return "", false
}

// honors reports whether DuckDuckGo has a market in lang
// (Properties.Languages).
func honors(lang string) bool {
	_, ok := kl(lang, "")
	return ok
}
