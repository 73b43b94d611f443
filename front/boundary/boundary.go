package boundary

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Stats counts what cleaning did to one string. The search pipeline sums
// Removed over a response into a characters_removed notice, and counts the
// strings with Truncated into title_truncated and snippet_truncated.
type Stats struct {
	Removed   int  // invisible and control characters removed (white space that was collapsed is not counted)
	Truncated bool // the text was cut at its bound and ends with "…"
}

// Ellipsis ends a string cut at its bound. It counts as one character of
// the bound.
const Ellipsis = "…"

// CleanMarkupText is clean_markup_text (docs/design: content boundary), for
// raw provider text such as a JSON engine's titles and snippets, which may
// carry markup and entities.
//
// It removes tags, keeping their text (the text of script, style,
// noscript, iframe, noembed and noframes is dropped, as are comments,
// CDATA sections and doctypes; br and block-level elements become a
// space), decodes character references once ("&amp;lt;" becomes the text
// "&lt;"), and then does what CleanDecodedText does. It follows the HTML
// tokenizer: "a < b" and "AT&T" are text and stay as they are.
//
// Its result is a fixed point of CleanDecodedText. It is not always one of
// CleanMarkupText itself: decoding once means that "&amp;lt;b&amp;gt;"
// becomes "<b>", which a second pass would read as a tag.
func CleanMarkupText(s string, maxChars int) (string, Stats) {
	return CleanDecodedText(stripMarkup(s), maxChars)
}

// CleanDecodedText is clean_decoded_text (docs/design: content boundary), for
// text a parser already decoded (a fetched page's title, a scraping driver's
// results): it normalizes to NFC, removes invisible and control characters as
// RemoveInvisible does, turns every run of white space into one space, trims,
// and bounds the result to maxChars characters (runes).
//
// A longer text is cut at the last space in the final fifth of the bound
// when there is one, else at the bound, never inside a character, a
// joiner sequence or an RGI flag, and "…" is appended within the bound.
// A maxChars below 1 leaves nothing. Invalid UTF-8 becomes U+FFFD. Markup
// is not touched: "std::vec::Vec<T> - Rust" comes back unchanged.
// CleanDecodedText(CleanDecodedText(s, n), n) == CleanDecodedText(s, n).
func CleanDecodedText(s string, maxChars int) (string, Stats) {
	var st Stats
	if !plain(s, true) {
		s = norm.NFC.String(strings.ToValidUTF8(s, "\uFFFD"))
		c := cleaner{collapse: true}
		c.run(s)
		// A base and its mark may now be side by side; and where more than
		// 30 combining characters now follow one another NFC inserts a
		// combining grapheme joiner (Stream-Safe Text Format), which the
		// cleaner keeps on a second pass.
		s, st.Removed = norm.NFC.String(c.b.String()), c.removed
	}
	s, st.Truncated = bound(s, maxChars)
	return s, st
}

// bound cuts s, which is clean, to at most max runes, "…" included.
func bound(s string, max int) (string, bool) {
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s, false
	}
	if max < 1 {
		return "", true
	}
	limit := max - 1 // runes of text before "…"
	rs := make([]rune, 0, limit+1)
	for _, r := range s {
		if len(rs) > limit {
			break
		}
		rs = append(rs, r)
	}
	cut := wordCut(rs, max)
	if cut < 0 {
		cut = graphemeCut(rs, limit)
	}
	for cut > 0 && rs[cut-1] == ' ' {
		cut--
	}
	return string(rs[:cut]) + Ellipsis, true
}

// wordCut returns the index of the last space of rs (which holds the
// limit+1 runes from the cut on) in the last fifth of the bound max, or -1.
func wordCut(rs []rune, max int) int {
	lo := max - max/5
	for p := len(rs) - 1; p >= lo && p > 0; p-- {
		if rs[p] == ' ' {
			return p
		}
	}
	return -1
}

// graphemeCut returns the cut at or before limit that splits no character
// from the marks, selectors, modifiers and tags after it, and no joiner
// from the character it joins; when the whole prefix is one such cluster,
// it cuts at limit and drops the joiners (CGJ included) and tag
// characters left at the end.
func graphemeCut(rs []rune, limit int) int {
	cut := limit
	for cut > 0 && (extends(rs[cut]) || isJoiner(rs[cut-1])) {
		cut--
	}
	if cut > 0 {
		return cut
	}
	cut = limit
	for cut > 0 && (isJoiner(rs[cut-1]) || classOf(rs[cut-1]) == tagChar || rs[cut-1] == 0x034F) {
		cut--
	}
	return cut
}

// extends reports whether r belongs to the character before it.
func extends(r rune) bool {
	return unicode.IsMark(r) || isJoiner(r) || emojiModifier(r) || classOf(r) == tagChar || startsCombining(r)
}

func isJoiner(r rune) bool { return r == 0x200C || r == 0x200D }
