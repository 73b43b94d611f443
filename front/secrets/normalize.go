package secrets

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// joined returns v as the matchers read it first: without its invisible
// characters (see invisible), marks (unicode.IsMark: a combining acute
// accent, an enclosing circle) and blanks (see blank), and with
// compatibility characters folded to their NFKD decomposition without
// its marks (fullwidth "ｇｈｐ＿" to "ghp_", the fullwidth full stop
// U+FF0E to ".", "á" to "a"). Every rune is read on its own, so a byte of
// the result maps back to the one character it came from.
//
// It also returns the offsets of the result where a blank or a mark was
// removed or a run of folded characters begins or ends, ascending and
// distinct: soft boundaries, which a credential reads through and where it
// may also begin or end though glued to a word (scan), as a reader who
// does not fold could read it there ("ａ" + "ghp_…", "ghp_…" + "é"). It
// returns v
// itself, and no offsets, when there is nothing to change: the fast path
// of plain ASCII text without line breaks or control characters.
func (v view) joined() (view, []int) {
	return v.normalized(true)
}

// spaced returns v as the matchers read it second, as they read it before
// anything was folded: without its invisible characters, each blank read
// as a space, everything else as it is. What joined cannot see (a long
// JWT glued to a word by a blank, a PEM header whose spaces are blanks) it
// sees; it returns v itself when joined does.
func (v view) spaced() view {
	w, _ := v.normalized(false)
	return w
}

// normalized is joined (join) or spaced.
func (v view) normalized(join bool) (view, []int) {
	t := v.text
	first := -1
	for i := 0; i < len(t); i++ {
		if needsNormalizing[t[i]] {
			first = i
			break
		}
	}
	if first < 0 {
		return v, nil
	}
	b := builder{from: v, text: make([]byte, 0, len(t)), lo: make([]int, 0, len(t)), hi: make([]int, 0, len(t))}
	for j := 0; j < first; j++ {
		b.add(t[j], j, j, false)
	}
	for i := first; i < len(t); {
		if c := t[i]; c < utf8.RuneSelf {
			switch {
			case c == '\n' || c == '\r':
				b.blank(i, i, join)
			case !invisibleASCII[c]:
				b.add(c, i, i, false)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		last := i + size - 1
		switch {
		case r == utf8.RuneError && size == 1:
			b.add(t[i], i, i, false) // an invalid byte: one character, kept
		case invisible(r, size):
		case blank(r):
			b.blank(i, last, join)
		case !join:
			b.keep(t[i:i+size], i, last)
		case unicode.IsMark(r):
			b.soften()
		default:
			b.fold(t[i:i+size], i, last)
		}
		i += size
	}
	return view{text: string(b.text), lo: b.lo, hi: b.hi}, b.soft
}

// needsNormalizing is the set of bytes normalized may change: the ASCII
// control characters it removes or reads as blanks, and every byte of a
// multi-byte character.
var needsNormalizing = func() (c class) {
	for b := range 256 {
		c[b] = b >= utf8.RuneSelf || b == '\n' || b == '\r' || invisibleASCII[b]
	}
	return c
}()

// blank reports whether r, not invisible, is a blank look-alike: a
// character that shows as white space, or as nothing, but is not the
// space or the tab by which words of one line are separated. These are
// the line feed and the carriage return (a credential wrapped across
// lines, in a terminal, a mail or a PEM body, is still one credential),
// the no-break spaces (U+00A0, U+202F), the Ogham space mark, the
// typographic spaces U+2000..U+200A, the medium mathematical space, the
// line and paragraph separators, the ideographic space and the braille
// pattern blank U+2800. Other blanks (the Hangul fillers, the Mongolian
// vowel separator, NEL) are invisible and removed everywhere.
func blank(r rune) bool {
	switch r {
	case '\n', '\r', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x2800:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// A builder builds the result of normalized: its text and, for each byte,
// the characters of the original it came from.
type builder struct {
	from   view
	text   []byte
	lo, hi []int
	soft   []int
	folded bool // the last byte added came from a folded character
}

// add appends c, which came from the bytes [first, last] of from, folded
// or not; a soft boundary goes where foldedness changes.
func (b *builder) add(c byte, first, last int, folded bool) {
	if folded != b.folded {
		b.soften()
		b.folded = folded
	}
	b.text = append(b.text, c)
	b.lo = append(b.lo, b.from.start(first))
	b.hi = append(b.hi, b.from.end(last))
}

// blank appends a space for the blank at bytes [first, last] of from, or,
// with join, notes a soft boundary where it was removed.
func (b *builder) blank(first, last int, join bool) {
	if !join {
		b.add(' ', first, last, false)
		return
	}
	b.soften()
}

// soften notes a soft boundary at the end of the text so far.
func (b *builder) soften() {
	if n := len(b.text); len(b.soft) == 0 || b.soft[len(b.soft)-1] != n {
		b.soft = append(b.soft, n)
	}
}

// keep appends the character s, the bytes [first, last] of from, as it is.
func (b *builder) keep(s string, first, last int) {
	for i := 0; i < len(s); i++ {
		b.add(s[i], first, last, false)
	}
}

// fold appends the character s, the bytes [first, last] of from, as its
// compatibility decomposition without marks, or as itself when it has
// none.
func (b *builder) fold(s string, first, last int) {
	d := norm.NFKD.PropertiesString(s).Decomposition()
	if d == nil {
		b.keep(s, first, last)
		return
	}
	for len(d) > 0 {
		r, size := utf8.DecodeRune(d)
		if !unicode.IsMark(r) {
			for _, c := range d[:size] {
				b.add(c, first, last, true)
			}
		}
		d = d[size:]
	}
}
