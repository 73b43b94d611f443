package secrets

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A view is text prepared for matching, with the way back to the caller's
// string: byte i of text came from the characters [lo[i], hi[i]) of the
// original. When lo and hi are nil, byte i came from character i (the
// original was ASCII and nothing was removed), and no table is built.
type view struct {
	text   string
	lo, hi []int
}

func (v view) start(i int) int {
	if v.lo == nil {
		return i
	}
	return v.lo[i]
}

func (v view) end(i int) int {
	if v.hi == nil {
		return i + 1
	}
	return v.hi[i]
}

// findings turns matches, byte ranges of v.text, into findings in
// characters of the original.
func (v view) findings(ms []match) []Finding {
	if len(ms) == 0 {
		return nil
	}
	fs := make([]Finding, len(ms))
	for i, m := range ms {
		p := v.start(m.start)
		fs[i] = Finding{Kind: m.kind, Position: p, Length: v.end(m.end-1) - p}
	}
	return fs
}

// runeView is s itself, with byte positions mapped to character positions.
// A character is what ranging over a string yields: a rune, or one byte of
// invalid UTF-8.
func runeView(s string) view {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return view{text: s}
	}
	lo := make([]int, len(s))
	hi := make([]int, len(s))
	k := 0
	for i := 0; i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		for j := i; j < i+size; j++ {
			lo[j], hi[j] = k, k+1
		}
		i += size
	}
	return view{text: s, lo: lo, hi: hi}
}

// withoutInvisible returns v without its invisible characters (see
// invisible). It returns v itself when there are none.
func (v view) withoutInvisible() view {
	t := v.text
	first := -1
	for i := 0; i < len(t); {
		if c := t[i]; c < utf8.RuneSelf {
			if invisibleASCII[c] {
				first = i
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if invisible(r, size) {
			first = i
			break
		}
		i += size
	}
	if first < 0 {
		return v
	}
	b := make([]byte, 0, len(t))
	lo := make([]int, 0, len(t))
	hi := make([]int, 0, len(t))
	for j := 0; j < first; j++ {
		b = append(b, t[j])
		lo = append(lo, v.start(j))
		hi = append(hi, v.end(j))
	}
	for i := first; i < len(t); {
		size := 1
		var r rune
		if c := t[i]; c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, size = utf8.DecodeRuneInString(t[i:])
		}
		if !invisible(r, size) {
			for j := i; j < i+size; j++ {
				b = append(b, t[j])
				lo = append(lo, v.start(j))
				hi = append(hi, v.end(j))
			}
		}
		i += size
	}
	return view{text: string(b), lo: lo, hi: hi}
}

// percentDecoded returns v with each "%XX" (two hex digits) replaced by the
// byte it encodes; blanks (see blank) before either digit are read
// through, as matching reads through them. A byte decoded from an escape
// maps to the characters of the whole escape. It returns v itself when
// there is nothing to decode.
func (v view) percentDecoded() view {
	t := v.text
	if strings.IndexByte(t, '%') < 0 {
		return v
	}
	b := make([]byte, len(t))
	lo := make([]int, len(t))
	hi := make([]int, len(t))
	k := 0
	for i := 0; i < len(t); k++ {
		c, n := t[i], 1
		if c == '%' {
			if h := afterBlanks(t, i+1); h < len(t) && isHex(t[h]) {
				if l := afterBlanks(t, h+1); l < len(t) && isHex(t[l]) {
					c, n = unhex(t[h])<<4|unhex(t[l]), l+1-i
				}
			}
		}
		b[k] = c
		if v.lo == nil {
			lo[k], hi[k] = i, i+n
		} else {
			lo[k], hi[k] = v.lo[i], v.hi[i+n-1]
		}
		i += n
	}
	return view{text: string(b[:k]), lo: lo[:k], hi: hi[:k]}
}

// decodings yields v, then v percent-decoded, again and again until no
// escape is left or maxDecodes times. Before each decoding the invisible
// characters are removed, so that they cannot hide an escape ("%2" +
// U+200B + "E").
func (v view) decodings(yield func(view) bool) {
	for n := 0; yield(v) && n < maxDecodes && strings.IndexByte(v.text, '%') >= 0; n++ {
		w := v.withoutInvisible()
		d := w.percentDecoded()
		if len(d.text) == len(w.text) {
			return // no escape
		}
		v = d
	}
}

// plusAsSpace returns v with "+" read as a space, as in a form-encoded
// query. Byte positions do not change, so the tables are shared.
func (v view) plusAsSpace() view {
	v.text = strings.ReplaceAll(v.text, "+", " ")
	return v
}

// afterBlanks returns the offset of the first byte at or after t[i] that
// does not start a blank.
func afterBlanks(t string, i int) int {
	for i < len(t) {
		r, size := rune(t[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(t[i:])
		}
		if !blank(r) {
			return i
		}
		i += size
	}
	return i
}

func isHex(c byte) bool { return hexDigit.has(c) }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// invisibleASCII is invisible for ASCII: the control characters other
// than whitespace, and DEL.
var invisibleASCII = func() (c class) {
	for b := range utf8.RuneSelf {
		c[b] = invisible(rune(b), 1)
	}
	return c
}()

// invisible reports whether r, decoded from size bytes, is a character
// matching reads through: one that renders as nothing, so that it can hide
// inside a credential without changing how the credential looks or, once
// stripped by whoever receives it, what it is. The set is the content
// boundary's (REQ-SEC-015, package boundary): the C0 controls but tab,
// line feed and carriage return, DEL, the C1 controls, and Unicode's
// Default_Ignorable_Code_Point (soft hyphen, U+200B..U+200F zero-width
// space, ZWNJ, ZWJ, LRM and RLM, bidi embeddings, overrides and isolates,
// U+2060 word joiner, U+FEFF byte-order mark, variation selectors, tag
// characters, Hangul fillers...) with the interlinear annotation
// characters. The boundary keeps joiners, variation selectors and tag
// characters where they carry meaning next to letters or emoji; inside a
// credential, which is ASCII, they never do, so here they always are
// invisible. An invalid UTF-8 byte is not invisible.
func invisible(r rune, size int) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r < 0x7F:
		return false
	case r <= 0x9F:
		return true // DEL and the C1 controls
	case r < 0xAD, r == utf8.RuneError && size == 1:
		return false
	case 0xFFF9 <= r && r <= 0xFFFB: // interlinear annotation
		return true
	}
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.Prepended_Concatenation_Mark, r) &&
			!(0x13430 <= r && r <= 0x1343F) // Egyptian hieroglyph format controls
}
