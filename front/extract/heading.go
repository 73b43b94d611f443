package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Headings inside headings. A template can wrap a heading around blocks
// that hold other headings (<h2><div><h2>…); x/net/html builds that as
// written. Readability compares the text of every <h1> and <h2> with the
// title, so a tower of such headings around a long text costs the text's
// size once per level: 250 levels around 2 MB took more than a minute.
// A heading that holds a heading is not a heading but a wrapper, and
// flattenNestedHeadings makes it a <div> before readability runs, in one
// walk.

// flattenNestedHeadings renames every heading that holds another heading
// to a <div>.
func flattenNestedHeadings(root *html.Node) {
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		holds := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && walk(c) {
				holds = true
			}
		}
		if !isHeading(n) {
			return holds
		}
		if holds {
			n.Data, n.DataAtom = "div", atom.Div
		}
		return true
	}
	walk(root)
}

// maxWrapperChain is the longest chain of wrappers kept: elements whose
// only child is the next wrapper. Real pages nest a few dozen deep at
// most; a chain of hundreds around a long text makes readability, which
// reads each ancestor's text, pay the text's size once per level.
const maxWrapperChain = 32

// shortenWrapperChains splices out of every chain of <div>, <section>,
// <span> or <article> elements that each hold only the next one (and
// white space) the links past maxWrapperChain, keeping its top and its
// innermost element, in one walk.
func shortenWrapperChains(root *html.Node) {
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		only := onlyWrapperChild(n)
		if only == nil {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					walk(c, 0)
				}
			}
			return
		}
		if depth >= maxWrapperChain {
			// splice only out: its children become n's
			for c := only.FirstChild; c != nil; {
				next := c.NextSibling
				only.RemoveChild(c)
				n.InsertBefore(c, only)
				c = next
			}
			n.RemoveChild(only)
			walk(n, depth)
			return
		}
		walk(only, depth+1)
	}
	walk(root, 0)
}

// onlyWrapperChild is n's one child element when n is a wrapper that holds
// nothing else but white space, and that child is a wrapper too.
func onlyWrapperChild(n *html.Node) *html.Node {
	if !isWrapper(n) {
		return nil
	}
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			if visibleRunes(c.Data) > 0 {
				return nil
			}
		case c.Type == html.ElementNode:
			if only != nil || !isWrapper(c) {
				return nil
			}
			only = c
		}
	}
	return only
}

// isWrapper reports whether n is an element that only groups.
func isWrapper(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Div, atom.Section, atom.Span, atom.Article:
		return true
	}
	return false
}
