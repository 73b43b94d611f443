package boundary

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// class is what the boundary does with one character.
type class uint8

const (
	visible   class = iota // kept
	invisible              // removed wherever it stands
	joiner                 // ZWNJ or ZWJ: kept only where it carries orthography
	selector               // variation selector: kept only after a base that takes it
	tagChar                // tag character: kept only inside an RGI subdivision flag
	cgj                    // combining grapheme joiner: kept only between combining characters
)

// classOf classifies r. White space is the caller's business: the C0 and C1
// white-space controls (\t \n \v \f \r U+0085) are invisible here, and
// CleanDecodedText turns them into spaces before it asks.
func classOf(r rune) class {
	switch {
	case r < 0x20:
		return invisible // C0 controls
	case r < 0x7F:
		return visible
	case r <= 0x9F:
		return invisible // DEL and the C1 controls
	case r < 0xAD:
		return visible
	}
	switch r {
	case 0x034F:
		return cgj
	case 0x00AD, // soft hyphen
		0x061C,                         // Arabic letter mark
		0x115F, 0x1160, 0x3164, 0xFFA0, // Hangul fillers
		0x17B4, 0x17B5, // Khmer inherent vowels
		0x180E, // Mongolian vowel separator
		0xFEFF: // zero-width no-break space, byte order mark
		return invisible
	case 0x200C, 0x200D:
		return joiner
	case 0x180B, 0x180C, 0x180D, 0x180F: // Mongolian free variation selectors
		return selector
	}
	switch {
	case 0x200B <= r && r <= 0x200F, // ZWSP, (joiners above), LRM, RLM
		0x202A <= r && r <= 0x202E,   // bidi embeddings and overrides
		0x2060 <= r && r <= 0x206F,   // word joiner, invisible operators, bidi isolates, deprecated format
		0xFFF0 <= r && r <= 0xFFFB,   // unassigned specials, interlinear annotation
		0x1BCA0 <= r && r <= 0x1BCA3, // shorthand format controls
		0x1D173 <= r && r <= 0x1D17A: // musical symbol format controls
		return invisible
	case 0xFE00 <= r && r <= 0xFE0F, 0xE0100 <= r && r <= 0xE01EF:
		return selector
	case 0xE0020 <= r && r <= 0xE007F:
		return tagChar
	case 0xE0000 <= r && r <= 0xE0FFF:
		return invisible // language tag and the rest of the tag block
	}
	return visible
}

// joiningScripts are the scripts in which ZWNJ and ZWJ are orthographic:
// the cursive joining scripts, and the Brahmic scripts whose conjuncts they
// select.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Mandaic,
	unicode.Manichaean, unicode.Psalter_Pahlavi, unicode.Adlam, unicode.Hanifi_Rohingya,
	unicode.Sogdian, unicode.Old_Uyghur, unicode.Chorasmian, unicode.Phags_Pa,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
	unicode.Myanmar, unicode.Khmer,
}

// joiningScript returns the index in joiningScripts of r's script, or -1.
func joiningScript(r rune) int {
	for i, t := range joiningScripts {
		if unicode.Is(t, r) {
			return i
		}
	}
	return -1
}

// emojiModifier reports whether r is a skin-tone modifier.
func emojiModifier(r rune) bool { return 0x1F3FB <= r && r <= 0x1F3FF }

// rgiFlagTags are the tag sequences of the three RGI subdivision flags
// (England, Scotland, Wales), each following U+1F3F4 WAVING BLACK FLAG.
var rgiFlagTags = []string{tags("gbeng"), tags("gbsct"), tags("gbwls")}

// tags spells s in tag characters, with the cancel tag after it.
func tags(s string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteRune(0xE0000 + c)
	}
	b.WriteRune(0xE007F)
	return b.String()
}

// cleaner removes invisible characters from one string. The decision for a
// contextual character looks at what was already written (prev, base) and
// at the next character that is not removed wherever it stands (next).
type cleaner struct {
	b        strings.Builder
	collapse bool // white space runs become one space, trimmed (CleanDecodedText)
	removed  int
	pending  bool // a space is owed before the next character (collapse)
	prev     rune // the last character written (or ' ' when a space is owed); 0 at the start
	base     rune // the last letter written, if only marks were written after it; else 0
}

// RemoveInvisible removes invisible and control characters (REQ-SEC-015)
// and returns the cleaned string and how many characters it removed.
//
// It keeps \t, \n and \r, and every other character of the table in the
// package documentation that the table does not say to remove; ZWNJ,
// ZWJ, CGJ, variation selectors and tag characters are kept only in the
// contexts the documentation names. Invalid UTF-8 becomes U+FFFD, which is not counted.
// RemoveInvisible(RemoveInvisible(s)) == RemoveInvisible(s).
func RemoveInvisible(s string) (string, int) {
	if plain(s, false) {
		return s, 0
	}
	c := cleaner{}
	c.run(strings.ToValidUTF8(s, "\uFFFD"))
	return c.b.String(), c.removed
}

// plain reports whether s is printable ASCII (plus \t \n \r unless
// collapse), which no cleaning step changes.
func plain(s string, collapse bool) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= 0x7F:
			return false
		case b >= 0x20:
			if collapse && b == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
				return false
			}
		case collapse || (b != '\t' && b != '\n' && b != '\r'):
			return false
		}
	}
	return true
}

// run cleans s, which is valid UTF-8, into c.b.
func (c *cleaner) run(s string) {
	c.b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if c.collapse && unicode.IsSpace(r) {
			if c.b.Len() > 0 {
				c.pending, c.prev, c.base = true, ' ', 0
			}
			i += n
			continue
		}
		if r == '\t' || r == '\n' || r == '\r' { // not collapsing
			c.write(r)
			i += n
			continue
		}
		switch classOf(r) {
		case visible:
			if r == 0x1F3F4 {
				if t := flagTags(s[i+n:]); t != "" {
					c.write(r)
					c.b.WriteString(t)
					c.prev, c.base = 0xE007F, 0
					i += n + len(t)
					continue
				}
			}
			c.write(r)
		case joiner:
			if c.keepJoiner(r, s[i+n:]) {
				c.write(r)
			} else {
				c.removed++
			}
		case cgj:
			if c.keepCGJ(s[i+n:]) {
				c.write(r)
			} else {
				c.removed++
			}
		case selector:
			if c.keepSelector(r) {
				c.write(r)
			} else {
				c.removed++
			}
		default: // invisible, and a tag character outside an RGI flag
			c.removed++
		}
		i += n
	}
}

// flagTags returns the RGI subdivision tag sequence s starts with, or "".
func flagTags(s string) string {
	for _, t := range rgiFlagTags {
		if strings.HasPrefix(s, t) {
			return t
		}
	}
	return ""
}

// write writes r, after the space owed, and updates the context.
func (c *cleaner) write(r rune) {
	if c.pending {
		c.b.WriteByte(' ')
		c.pending = false
	}
	c.b.WriteRune(r)
	c.prev = r
	switch {
	case unicode.IsLetter(r):
		c.base = r
	case r >= 0x300 && unicode.IsMark(r): // keeps its base
	default:
		c.base = 0
	}
}

// next returns the first character of s that is not removed wherever it
// stands, or -1 at the end. A white-space character is returned as ' ' when
// collapsing.
func (c *cleaner) next(s string) rune {
	for _, r := range s {
		if c.collapse && unicode.IsSpace(r) {
			return ' '
		}
		if r == '\t' || r == '\n' || r == '\r' || classOf(r) != invisible {
			return r
		}
	}
	return -1
}

// keepJoiner reports whether the joiner j, followed by rest, carries
// orthography: after a letter (and its marks) and before a letter of one
// joining script (ZWNJ and ZWJ), or inside an emoji ZWJ sequence (ZWJ
// only). Both sides are characters that normalization does not move or
// merge across scripts, and the next one is always kept, so that the
// decision is the same on a second pass.
func (c *cleaner) keepJoiner(j rune, rest string) bool {
	next := c.next(rest)
	if next <= 0 || classOf(next) != visible {
		return false
	}
	if c.base != 0 && unicode.IsLetter(next) {
		if k := joiningScript(c.base); k >= 0 && unicode.Is(joiningScripts[k], next) {
			return true
		}
	}
	if j == 0x200D && unicode.Is(unicode.So, next) {
		p := c.prev
		return unicode.Is(unicode.So, p) || emojiModifier(p) || p == 0xFE0F
	}
	return false
}

// keepSelector reports whether the variation selector v may follow what
// was written last: one selector per base, and only a base of the kind
// the selector's standardized sequences use.
func (c *cleaner) keepSelector(v rune) bool {
	p := c.prev
	if p <= ' ' || unicode.IsMark(p) {
		return false
	}
	switch {
	case v == 0xFE0E || v == 0xFE0F: // text and emoji presentation
		return unicode.In(p, unicode.L, unicode.N, unicode.P, unicode.S)
	case 0xFE00 <= v && v <= 0xFE0D: // math symbols, CJK compatibility, Myanmar, Phags-pa...
		return unicode.In(p, unicode.N, unicode.S, unicode.Han, unicode.Myanmar,
			unicode.Phags_Pa, unicode.Manichaean, unicode.Egyptian_Hieroglyphs)
	case 0xE0100 <= v && v <= 0xE01EF: // ideographic variation sequences
		return unicode.Is(unicode.Han, p)
	default: // Mongolian free variation selectors
		return unicode.IsLetter(p) && unicode.Is(unicode.Mongolian, p)
	}
}

// keepCGJ reports whether a combining grapheme joiner, followed by rest,
// stands between a character that ends with a combining character and one
// that starts with one: where it keeps marks from being reordered, and
// where NFC puts it (Unicode's Stream-Safe Text Format, after 30 combining
// characters). Elsewhere, inside a word for one, it only hides.
func (c *cleaner) keepCGJ(rest string) bool {
	p, next := c.prev, c.next(rest)
	return p != 0x034F && next > 0 && classOf(next) == visible && endsCombining(p) && startsCombining(next)
}

// combining reports whether r combines with what precedes it in some
// normalization form.
func combining(r rune) bool {
	return unicode.IsMark(r) || !norm.NFC.PropertiesString(string(r)).BoundaryBefore() ||
		!norm.NFKC.PropertiesString(string(r)).BoundaryBefore()
}

// startsCombining reports whether r's compatibility decomposition starts
// with a combining character.
func startsCombining(r rune) bool {
	if r < 0x80 {
		return false
	}
	if combining(r) {
		return true
	}
	d := []rune(string(norm.NFKD.PropertiesString(string(r)).Decomposition()))
	return len(d) > 0 && combining(d[0])
}

// endsCombining reports whether r's compatibility decomposition ends with
// a combining character. A Hangul syllable ends with a vowel or final
// jamo, which combine.
func endsCombining(r rune) bool {
	if r < 0x80 {
		return false
	}
	if combining(r) || (0xAC00 <= r && r <= 0xD7A3) {
		return true
	}
	d := []rune(string(norm.NFKD.PropertiesString(string(r)).Decomposition()))
	return len(d) > 0 && combining(d[len(d)-1])
}
