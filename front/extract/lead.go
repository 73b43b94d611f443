package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Lead recovery. News pages set the standfirst (lead, deck, teaser,
// chapô) apart from the body, in the article's header, and readability,
// which scores paragraphs by their container, often leaves it out. When it
// is an opening paragraph, it is part of the article as a reader sees it.
// recoverLead finds, in the page (root, which readability prepared but did
// not cut), the element just before the content's first text that is
// named as a lead, and puts it in front of the content. A one-line deck
// (shorter than minLeadParagraph) is a subtitle, like the title it stands
// under: it stays out, as Readability.js leaves it out.

// leadParts are class or id parts that name a lead paragraph.
var leadParts = map[string]bool{
	"lead": true, "leadtext": true, "lede": true, "intro": true, "introduction": true, "teaser": true,
	"standfirst": true, "subtitle": true, "subheadline": true, "deck": true, "dek": true,
	"chapo": true, "chapeau": true, "excerpt": true, "summary": true, "abstract": true,
	"description": true, "sapo": true, "entradilla": true, "bajada": true, "copete": true,
	"vorspann": true, "anriss": true,
}

// notLeadParts are class or id parts that make a lead-named element
// something else: an image's description, an author's bio.
var notLeadParts = map[string]bool{
	"img": true, "image": true, "photo": true, "foto": true, "bild": true, "picture": true, "media": true,
	"video": true, "caption": true, "credit": true, "author": true, "auteur": true, "autor": true,
	"vcard": true, "bio": true, "byline": true, "aside": true, "sidebar": true, "related": true,
	"widget": true, "footer": true, "nav": true,
}

// Bounds on a lead: one to a few sentences, not a wrapper around the
// header, and near the body (little text between them: title, byline,
// date, a caption).
const (
	minLeadChars = 30
	// minLeadParagraph is the length (visible characters, as visibleLen
	// counts them: about a line and a half) from which a lead is an
	// opening paragraph rather than a subtitle. A shorter lead is still
	// the nearest one found, and what stops the search: the deck under the
	// title, not another block farther up. recoverBefore (density.go)
	// holds the prose it puts back to the same length.
	minLeadParagraph = 120
	maxLeadChars     = 1200
	maxLeadGap       = 600
	maxLeadClimb     = 10
	leadProbeSize    = 40
)

// recoverLead prepends the page's lead to content when readability left
// it out.
func recoverLead(root, content *html.Node) {
	start := firstTextNode(content, leadProbeSize)
	if start == nil {
		return
	}
	probe := collapse(start.Data)
	probe = probe[:min(len(probe), leadProbeSize)]
	at := findText(root, probe)
	if at == nil {
		return
	}
	lead := leadBefore(at)
	if lead == nil {
		return
	}
	text := collapse(textOf(lead))
	if visibleLen(lead) < minLeadParagraph || strings.Contains(collapse(textOf(content)), text[:min(len(text), 60)]) {
		return
	}
	c := clone(lead)
	if isHeading(c) || c.DataAtom == atom.Div || c.DataAtom == atom.Span {
		c.DataAtom, c.Data = atom.P, "p"
	}
	content.InsertBefore(c, content.FirstChild)
}

// leadBefore climbs from n and searches the elements before it, nearest
// first, for a lead; it stops at the enclosing <article>, <main> or
// <body>, or once more than maxLeadGap characters lie between.
func leadBefore(n *html.Node) *html.Node {
	gap := 0
	for p, level := n, 0; p.Parent != nil && level < maxLeadClimb; p, level = p.Parent, level+1 {
		for s := p.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type != html.ElementNode {
				continue
			}
			if l := lastLead(s); l != nil {
				return l
			}
			if gap += visibleLen(s); gap > maxLeadGap {
				return nil
			}
		}
		switch p.Parent.DataAtom {
		case atom.Article, atom.Main, atom.Body:
			return nil
		}
	}
	return nil
}

// lastLead is the last element in n's subtree, in document order, that is
// a lead.
func lastLead(n *html.Node) *html.Node {
	switch n.DataAtom {
	case atom.Aside, atom.Nav, atom.Footer, atom.Form:
		// a teaser for another page, not this article's lead
		return nil
	}
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			if l := lastLead(c); l != nil {
				return l
			}
		}
	}
	if isLead(n) {
		return n
	}
	return nil
}

// isLead reports whether n is named as a lead and looks like one: a short
// text block, not a list, not mostly links, without the title.
func isLead(n *html.Node) bool {
	if !nameHas(n, leadParts) && !attrIs(n, "itemprop", "description") && !attrIs(n, "itemprop", "abstract") {
		return false
	}
	if n.DataAtom == atom.Figure || n.DataAtom == atom.Figcaption || nameHas(n, notLeadParts) {
		return false
	}
	l := visibleLen(n)
	if l < minLeadChars || l > maxLeadChars || linkDensity(n) > 0.3 {
		return false
	}
	bad := false
	walkElements(n, func(e *html.Node) {
		switch e.DataAtom {
		case atom.H1, atom.Li, atom.Ul, atom.Ol, atom.Table, atom.Form, atom.Nav:
			bad = true
		}
	})
	return !bad
}

// firstTextNode is the first text node under n with at least size
// non-space characters.
func firstTextNode(n *html.Node, size int) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && len(collapse(c.Data)) >= size {
			return c
		}
		if f := firstTextNode(c, size); f != nil {
			return f
		}
	}
	return nil
}

// findText is the first text node under n whose collapsed text contains
// s. Nodes without s's first word are skipped without collapsing them.
func findText(n *html.Node, s string) *html.Node {
	word, _, _ := strings.Cut(s, " ")
	var walk func(n *html.Node) *html.Node
	walk = func(n *html.Node) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && strings.Contains(c.Data, word) && strings.Contains(collapse(c.Data), s) {
				return c
			}
			if f := walk(c); f != nil {
				return f
			}
		}
		return nil
	}
	return walk(n)
}
