package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A style attribute read as a browser reads it, reduced to what the
// hiding rules of style.go need. Substring matching is not enough: a
// browser ignores comments anywhere (display:/**/none), white space and
// case, reads escapes (n\6f ne), keeps a `;` in quotes or parentheses
// inside its declaration, lets a later declaration replace an earlier one
// and an !important one win, and drops a declaration it cannot read
// (display:none; display:bogus still hides). The parser below follows the
// CSS syntax for a declaration list without building tokens: it splits,
// then decodes.

// decl is one declaration of a style attribute.
type decl struct {
	prop, value string
	important   bool
}

// parseDecls returns the declarations of a style attribute in order.
// Comments are removed (each separates tokens, as a space does); a `;`
// quoted, escaped or inside parentheses, brackets or braces does not end
// a declaration; escapes are decoded; the name is lower-cased; the value
// is lower-cased, its white space collapsed to single spaces and a
// trailing !important taken off (important set). A part without a colon,
// a name or a value is skipped, as a browser skips it.
func parseDecls(style string) []decl {
	var out []decl
	for _, part := range splitTop(stripComments(style), func(c byte) bool { return c == ';' }) {
		colon := strings.IndexByte(part, ':')
		if colon < 0 {
			continue
		}
		prop := strings.ToLower(unescape(strings.Trim(part[:colon], cssSpace)))
		if !identLike(prop) {
			continue
		}
		value, important := cutImportant(collapseSpace(strings.ToLower(unescape(part[colon+1:]))))
		if value == "" {
			continue
		}
		out = append(out, decl{prop: prop, value: value, important: important})
	}
	return out
}

// cssSpace is white space for CSS; a no-break space is not.
const cssSpace = " \t\n\r\f"

func isCSSSpace(c byte) bool { return strings.IndexByte(cssSpace, c) >= 0 }

// stripComments replaces every /* … */ outside quotes by a space; an
// unclosed comment runs to the end.
func stripComments(s string) string {
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			i++
			c = s[i]
		case quote != 0:
			if c == quote || c == '\n' || c == '\r' || c == '\f' {
				quote = 0 // a newline ends a string (a bad string)
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += 2 + end + 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// splitTop splits s at the bytes sep accepts that stand outside quotes
// and brackets and are not escaped, dropping empty parts.
func splitTop(s string, sep func(byte) bool) []string {
	var parts []string
	var quote byte
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
		case quote != 0:
			if c == quote || c == '\n' || c == '\r' || c == '\f' {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		case depth == 0 && sep(c):
			if i > start {
				parts = append(parts, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

// unescape decodes CSS escapes: a backslash and one to six hex digits
// (then one white space, if any) is that code point, U+FFFD for zero, a
// surrogate or one beyond Unicode; a backslash and a newline is nothing;
// a backslash and any other character is that character.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) {
			b.WriteRune(utf8.RuneError)
			break
		}
		j := i
		for j < len(s) && j-i < 6 && isHex(s[j]) {
			j++
		}
		switch {
		case j > i:
			cp, _ := strconv.ParseUint(s[i:j], 16, 32)
			r := rune(cp)
			if cp == 0 || cp > utf8.MaxRune || !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
			if j < len(s) && isCSSSpace(s[j]) {
				j++
			}
			i = j - 1
		case s[i] == '\n' || s[i] == '\r' || s[i] == '\f':
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size - 1
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// identLike reports whether s can be a property name: letters, digits, -
// and _, or any non-ASCII character.
func identLike(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// collapseSpace trims s and turns each run of CSS white space into one
// space.
func collapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r < utf8.RuneSelf && isCSSSpace(byte(r)) }), " ")
}

// cutImportant takes a trailing "!important" (or "! important") off a
// collapsed value.
func cutImportant(v string) (string, bool) {
	rest, ok := strings.CutSuffix(v, "important")
	if !ok {
		return v, false
	}
	rest, ok = strings.CutSuffix(strings.TrimSuffix(rest, " "), "!")
	if !ok {
		return v, false
	}
	return strings.TrimSuffix(rest, " "), true
}

// --- values ---

// fields splits a collapsed value, or a function's arguments, at spaces
// and commas outside brackets.
func fields(v string) []string {
	return splitTop(v, func(c byte) bool { return c == ' ' || c == ',' })
}

// call splits a function value such as "rect(0,0,0,0)" into its name and
// the text between its parentheses.
func call(v string) (name, args string, ok bool) {
	open := strings.IndexByte(v, '(')
	if open <= 0 || !strings.HasSuffix(v, ")") || !identLike(v[:open]) {
		return "", "", false
	}
	return v[:open], v[open+1 : len(v)-1], true
}

// isCall reports whether v is a function value (calc(), var(), …), which
// a browser accepts for any property and resolves later.
func isCall(v string) bool {
	_, _, ok := call(v)
	return ok
}

// dim parses a number with its unit ("-9999px", "0", "50%", "1.5e1em").
// A calc() of one such term is read as that term.
func dim(tok string) (n float64, unit string, ok bool) {
	if name, args, isFn := call(tok); isFn {
		if name != "calc" {
			return 0, "", false
		}
		tok = strings.Trim(args, " ")
	}
	end := numberEnd(tok)
	if end == 0 {
		return 0, "", false
	}
	n, err := strconv.ParseFloat(tok[:end], 64)
	if err != nil {
		return 0, "", false
	}
	unit = tok[end:]
	if unit != "%" && strings.TrimLeft(unit, "abcdefghijklmnopqrstuvwxyz") != "" {
		return 0, "", false
	}
	return n, unit, true
}

// numberEnd is the length of the CSS number at the start of s, 0 when
// there is none: a sign, digits with at most one point, and an exponent
// only when digits follow the e (so that 1em is one em).
func numberEnd(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && s[i] == 'e' {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for i = j; i < len(s) && isDigit(s[i]); i++ {
			}
		}
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Assumed sizes for units relative to the font or the viewport: the
// default font size, and a viewport a thousand pixels wide and high.
const (
	defaultFontPx = 16
	viewportPx    = 1000
)

// pxPer is the size of one unit of length in CSS pixels, with em taken as
// the default font size; ok is false for a unit that is not a length.
func pxPer(unit string) (float64, bool) {
	switch unit {
	case "px":
		return 1, true
	case "em", "rem", "lh", "rlh", "cap", "ic":
		return defaultFontPx, true
	case "ex", "ch":
		return defaultFontPx / 2, true
	case "pt":
		return 96.0 / 72, true
	case "pc":
		return 16, true
	case "in":
		return 96, true
	case "cm":
		return 96 / 2.54, true
	case "mm":
		return 96 / 25.4, true
	case "q":
		return 96 / 101.6, true
	case "vw", "vh", "vmin", "vmax", "svw", "svh", "lvw", "lvh", "dvw", "dvh", "vi", "vb":
		return viewportPx / 100, true
	}
	return 0, false
}

// lengthPx is a length in CSS pixels; ok is false for a percentage, a
// function or anything that is not a length. A unitless zero is a length.
func lengthPx(tok string) (float64, bool) {
	n, unit, ok := dim(tok)
	if !ok {
		return 0, false
	}
	if unit == "" {
		return 0, n == 0
	}
	per, ok := pxPer(unit)
	return n * per, ok
}

// isLength reports whether tok is a length or a percentage, the values of
// offsets, sizes and padding.
func isLength(tok string) bool {
	if _, ok := lengthPx(tok); ok {
		return true
	}
	_, unit, ok := dim(tok)
	return ok && unit == "%"
}

// isZero reports whether tok is a length or percentage of zero.
func isZero(tok string) bool {
	n, _, ok := dim(tok)
	return ok && n == 0 && isLength(tok)
}

// ratio is a number or a percentage as a fraction ("0.5", "50%"), as
// opacity and scale take them.
func ratio(tok string) (float64, bool) {
	n, unit, ok := dim(tok)
	switch {
	case !ok:
		return 0, false
	case unit == "%":
		return n / 100, true
	case unit == "":
		return n, true
	}
	return 0, false
}

// globalKeyword reports whether v is one of the keywords every property
// accepts.
func globalKeyword(v string) bool {
	switch v {
	case "inherit", "initial", "unset", "revert", "revert-layer":
		return true
	}
	return false
}
