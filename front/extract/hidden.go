package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Removal of what a browser does not render or no reader can see
// (REQ-CTX-005): a page can carry text for an agent that its readers never
// see, so such text is not the page's content.
//
//   - Elements never rendered as text (dropped), comments, closed
//     dialogs, the text alternatives of SVG drawings (desc, title,
//     metadata: a tooltip at most), and elements with the hidden
//     attribute or aria-hidden="true". A style that displays the element
//     anyway (hidden style="display:block") wins, as in a browser.
//   - Elements whose inline style hides them with everything inside
//     (style.go): display:none, opacity:0, off-screen offsets, an empty
//     clip or clip-path, a size of zero that clips, a scale of zero,
//     content-visibility:hidden.
//   - Text that inherits a hiding property a child can set back:
//     visibility:hidden (a child with visibility:visible is seen), and a
//     font size too small to read. font-size:0 on a container whose
//     children set their own size is the usual way to close the gaps
//     between inline blocks: the children's text stays and only the text
//     directly in the container (white space, as a rule) goes. A child
//     size relative to the parent's (em, %) stays at zero, as it renders.

// inherited is what an element passes down of the two hiding properties
// a child can set back: its computed font size and its visibility, and
// the root's font size, which rem refers to.
type inherited struct {
	fontPx, remPx float64
	invisible     bool
}

// child is what an element with style s passes to its children; root
// reports that the element is <html>.
func (in inherited) child(s *style, root bool) inherited {
	switch s.visibility {
	case "visible", "initial":
		in.invisible = false
	case "hidden", "collapse":
		in.invisible = true
	}
	if s.fontSize != "" {
		in.fontPx, _ = fontSizePx(s.fontSize, in.fontPx, in.remPx)
		if root {
			in.remPx = in.fontPx
		}
	}
	return in
}

// hidesText reports whether text under this state cannot be seen.
func (in inherited) hidesText() bool {
	return in.invisible || in.fontPx < minFontPx
}

// removeHidden removes hidden and non-rendered nodes, except in <head>,
// whose <title> and metadata readability reads.
func removeHidden(root *html.Node) {
	removeHiddenIn(root, inherited{fontPx: defaultFontPx, remPx: defaultFontPx})
}

// removeHiddenIn removes the hidden nodes under n, whose children inherit
// in.
func removeHiddenIn(n *html.Node, in inherited) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch c.Type {
		case html.CommentNode:
			n.RemoveChild(c)
		case html.TextNode:
			if in.hidesText() && visibleRunes(c.Data) > 0 {
				n.RemoveChild(c)
			}
		case html.ElementNode:
			if c.DataAtom == atom.Head {
				removeScriptsOnly(c)
				break
			}
			s := styleOf(c)
			if hidden(c, &s) {
				n.RemoveChild(c)
				break
			}
			settle(c)
			cin := in.child(&s, c.DataAtom == atom.Html)
			removeHiddenIn(c, cin)
			if cin.invisible && blank(c) {
				// nothing in it set visibility back: an invisible image,
				// an empty box
				n.RemoveChild(c)
			}
		}
		c = next
	}
}

// settle removes from an element removeHidden keeps the attributes it
// has judged (style, hidden), so that readability, which looks for
// display:none and visibility:hidden as substrings of a style and drops
// any element with the hidden attribute, does not judge them again and
// otherwise: a commented-out display:none, a visible child of an
// invisible parent, a hidden element its style displays. Nothing after
// removeHidden reads styles.
func settle(n *html.Node) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != "style" && a.Key != "hidden" {
			kept = append(kept, a)
		}
	}
	n.Attr = kept
}

// blank reports whether n has no element child and no text but white
// space.
func blank(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode || c.Type == html.TextNode && visibleRunes(c.Data) > 0 {
			return false
		}
	}
	return true
}

// hidden reports whether an element, with everything in it, is hidden by
// its author or never rendered; s is its style.
func hidden(n *html.Node, s *style) bool {
	if dropped[n.DataAtom] || svgAlternative(n) {
		return true
	}
	// displayed: the style overrides the browser's own display:none for
	// the hidden attribute and a closed dialog
	displayed := s.display != "" && s.display != "none" && s.display != "revert" && s.display != "revert-layer"
	if n.DataAtom == atom.Dialog && !displayed {
		if _, open := attr(n, "open"); !open {
			return true
		}
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			// hidden="until-found" is found by find-in-page: still content
			if !displayed && !strings.EqualFold(strings.TrimSpace(a.Val), "until-found") {
				return true
			}
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") && !fallbackImage(n) {
				return true
			}
		}
	}
	return s.gone()
}

// svgAlternative reports whether n is the text alternative or metadata of
// an SVG drawing, which a browser does not draw.
func svgAlternative(n *html.Node) bool {
	if n.Namespace != "svg" {
		return false
	}
	switch n.Data {
	case "desc", "title", "metadata":
		return true
	}
	return false
}

// docTitle is the document's first <title>, nil when there is none; the
// <title> of an SVG drawing is a tooltip, not the page's title, and is
// never rendered as text.
func docTitle(root *html.Node) *html.Node {
	t := find(root, atom.Title)
	for t != nil && t.Namespace != "" {
		t = nextElement(t, atom.Title)
	}
	return t
}

// fallbackImage reports whether n is an image a page shows in place of
// content it hid from sight (Wikipedia's formulas: MathML hidden, a
// picture of the formula marked aria-hidden for screen readers).
// Readability.js keeps these; so does the extraction.
func fallbackImage(n *html.Node) bool {
	if n.DataAtom != atom.Img {
		return false
	}
	c, _ := attr(n, "class")
	return strings.Contains(c, "fallback-image")
}

// removeScriptsOnly strips executable and style content from <head>,
// keeping <title> and <meta> for the title and byline.
func removeScriptsOnly(head *html.Node) {
	for c := head.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			switch c.DataAtom {
			case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Iframe, atom.Object, atom.Embed:
				head.RemoveChild(c)
			}
		}
		c = next
	}
}
