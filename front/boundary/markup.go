package boundary

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// stripMarkup returns the text of s read as an HTML fragment: the text
// tokens, their character references decoded once, without tags, comments
// (CDATA sections included, as HTML reads them), doctypes, or the content
// of elements that are not rendered. A br or a block-level element becomes
// a space, so that "a<br>b" reads "a b" while "<b>Go</b>lang" reads
// "Golang".
func stripMarkup(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	b.Grow(len(s))
	hidden := false // the text token after a start tag of a hidden element
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken: // io.EOF: the reader is a string
			return b.String()
		case html.TextToken:
			if !hidden {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if blockLevel[a] {
				b.WriteByte(' ')
			}
			hidden = tt != html.EndTagToken && rawHidden[a]
			continue
		}
		hidden = false
	}
}

// rawHidden are the elements whose content the tokenizer reads as raw text
// and a browser does not render (with scripting on).
var rawHidden = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true,
	atom.Iframe: true, atom.Noembed: true, atom.Noframes: true,
}

// blockLevel are the elements that separate words: line breaks, block and
// table elements.
var blockLevel = map[atom.Atom]bool{
	atom.Br: true, atom.Hr: true, atom.P: true, atom.Div: true, atom.Li: true,
	atom.Ul: true, atom.Ol: true, atom.Dl: true, atom.Dt: true, atom.Dd: true,
	atom.Table: true, atom.Tr: true, atom.Td: true, atom.Th: true,
	atom.Caption: true, atom.Blockquote: true, atom.Pre: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Nav: true, atom.Aside: true, atom.Main: true, atom.Figure: true,
	atom.Figcaption: true, atom.Address: true, atom.Details: true, atom.Summary: true,
	atom.Img: true,
}

// readThrough returns s as a reader of Markdown or HTML sees it: a
// backslash before ASCII punctuation (a CommonMark escape, which
// front/extract's converter writes before "_", "[", "*"...) is dropped and
// the punctuation kept as it is, and each character reference is decoded
// once, its name read case-insensitively ("&LT;", "&Lt;" and "&lt;" all
// read "<"), so that "&lt;|im\_start|&gt;" reads "<|im_start|>". It returns
// s itself when s holds neither '\' nor '&'. Linear in len(s).
func readThrough(s string) string {
	if !strings.ContainsAny(s, `\&`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && asciiPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
		case c == '&':
			n := charRefLen(s[i:])
			if n == 0 {
				b.WriteByte(c)
				i++
				continue
			}
			ref := strings.ToLower(s[i : i+n])
			if d := html.UnescapeString(ref); d != ref {
				b.WriteString(d)
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// asciiPunct reports whether c is ASCII punctuation, which CommonMark lets
// a backslash escape.
func asciiPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

// charRefLen returns the length of the character reference s starts with
// ("&name;", "&#123;", "&#x7B;", the ';' optional as HTML reads legacy
// references), or 0.
func charRefLen(s string) int {
	i, digits, maxLen := 1, isAlnum, 32
	switch {
	case strings.HasPrefix(s, "&#x"), strings.HasPrefix(s, "&#X"):
		i, digits, maxLen = 3, isHexDigit, 6
	case strings.HasPrefix(s, "&#"):
		i, digits, maxLen = 2, isDigit, 7
	case len(s) < 2 || !isAlnum(s[1]) || isDigit(s[1]):
		return 0
	}
	start := i
	for i < len(s) && i-start < maxLen && digits(s[i]) {
		i++
	}
	if i == start {
		return 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	return i
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func isAlnum(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
