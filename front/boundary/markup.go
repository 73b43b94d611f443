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
