package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Drop caps. A page that sets the first letter of a story apart (a span of
// one capital before the first paragraph, floated and enlarged by its
// style sheet) shows one word; the letter alone before the paragraph would
// become a paragraph of its own ("T", then "urkey, Poland and …"), the
// more so as readability wraps such a span in a <p> of its own.
// joinDropCaps puts such a letter back in front of the paragraph that
// follows it when that paragraph starts in lower case.

// joinDropCaps moves each drop cap under root into the paragraph after it.
func joinDropCaps(root *html.Node) {
	var caps []*html.Node
	walkElements(root, func(n *html.Node) {
		if dropCap(n) {
			caps = append(caps, n)
		}
	})
	for _, c := range caps {
		p := nextElementSibling(c)
		t := firstTextNode(p, 1)
		if t == nil {
			continue
		}
		lead := strings.TrimLeft(t.Data, " \t\r\n\f")
		r, _ := utf8.DecodeRuneInString(lead)
		if !unicode.IsLower(r) {
			continue
		}
		t.Data = strings.TrimSpace(textOf(c)) + lead
		c.Parent.RemoveChild(c)
	}
}

// dropCap reports whether n is an inline element or a paragraph whose
// whole text is one capital letter, followed by a paragraph.
func dropCap(n *html.Node) bool {
	switch tag(n) {
	case atom.Span, atom.B, atom.Strong, atom.Em, atom.I, atom.Font, atom.P, atom.Div:
	default:
		return false
	}
	t := strings.TrimSpace(textOf(n))
	r, size := utf8.DecodeRuneInString(t)
	if size != len(t) || !unicode.IsUpper(r) {
		return false
	}
	p := nextElementSibling(n)
	return p != nil && tag(p) == atom.P
}

// nextElementSibling is the element after n among its siblings, skipping
// white space; nil when text or nothing comes first.
func nextElementSibling(n *html.Node) *html.Node {
	for s := n.NextSibling; s != nil; s = s.NextSibling {
		switch {
		case s.Type == html.ElementNode:
			return s
		case s.Type == html.TextNode && strings.TrimSpace(s.Data) != "":
			return nil
		}
	}
	return nil
}
