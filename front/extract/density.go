package extract

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A second, independent opinion on where the article is. Readability
// scores paragraphs by their container with class-name weights, and on
// some pages it takes the wrong block whole: a teaser list, a newsletter
// form, one of two columns. The prose measure here knows nothing of
// classes: a block's own text (not that of the blocks inside it) is prose
// when it is a sentence or more with few links, outside navigation and
// forms; the alternative container is the one whose prose most exceeds the
// rest of its text. HTML compares the two and takes the alternative only
// when readability's result is clearly the wrong block (chooseAlternative).

// Prose thresholds: a block's own text is prose from minProseChars
// characters with at most maxProseLinkDensity of it in links.
const (
	minProseChars       = 40
	maxProseLinkDensity = 0.3
)

// inline are the elements whose text belongs to the enclosing block.
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Span: true, atom.B: true, atom.Strong: true, atom.I: true, atom.Em: true,
	atom.U: true, atom.S: true, atom.Small: true, atom.Big: true, atom.Sub: true, atom.Sup: true,
	atom.Font: true, atom.Abbr: true, atom.Acronym: true, atom.Cite: true, atom.Code: true,
	atom.Kbd: true, atom.Q: true, atom.Mark: true, atom.Time: true, atom.Label: true, atom.Br: true,
	atom.Img: true, atom.Wbr: true, atom.Del: true, atom.Ins: true, atom.Var: true, atom.Tt: true,
	atom.Bdi: true, atom.Bdo: true, atom.Data: true, atom.Dfn: true, atom.Strike: true, atom.Samp: true,
}

// noProse are the elements under which no text counts as prose: page
// furniture, forms and controls, captions.
var noProse = map[atom.Atom]bool{
	atom.Nav: true, atom.Aside: true, atom.Footer: true, atom.Form: true, atom.Button: true,
	atom.Select: true, atom.Textarea: true, atom.Figcaption: true, atom.Header: true,
}

// proseWalker measures prose under a tree.
type proseWalker struct {
	// onProse, when set, is called with every prose block and the length
	// of its own text.
	onProse func(block *html.Node, chars int)
	// onContainer, when set, is called with every element's prose and
	// total text, children before parents.
	onContainer func(n *html.Node, prose, total int)
}

// walk returns, for n's subtree, the own text and linked own text that
// belong to n's block, and the prose and total text of the whole subtree.
func (w *proseWalker) walk(n *html.Node, inLink, quiet bool) (own, linked, prose, total int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			l := proseRunes(c.Data)
			own += l
			if inLink {
				linked += l
			}
		case html.ElementNode:
			if inline[c.DataAtom] {
				o, lk, p, t := w.walk(c, inLink || c.DataAtom == atom.A, quiet)
				own += o
				linked += lk
				prose += p
				total += t
				continue
			}
			o, lk, p, t := w.walk(c, inLink, quiet || noProse[c.DataAtom])
			if !quiet && !noProse[c.DataAtom] && o >= minProseChars && float64(lk) <= maxProseLinkDensity*float64(o) {
				p += o
				if w.onProse != nil {
					w.onProse(c, o)
				}
			}
			t += o
			if w.onContainer != nil {
				w.onContainer(c, p, t)
			}
			prose += p
			total += t
		}
	}
	return own, linked, prose, total
}

// visibleRunes counts the non-space characters of s, as visibleLen does.
func visibleRunes(s string) int {
	count := 0
	for _, r := range s {
		if r != ' ' && r != '\n' && r != '\t' && r != '\r' && r != '\f' && r != 0xA0 {
			count++
		}
	}
	return count
}

// cjkWeight is what a character of a script written without spaces
// counts for in prose: about a word.
const cjkWeight = 3

// proseRunes counts the non-space characters of s, as visibleLen does,
// those of Chinese, Japanese and Korean cjkWeight times.
func proseRunes(s string) int {
	count := 0
	for _, r := range s {
		switch {
		case r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == 0xA0:
		case r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
			unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)):
			count += cjkWeight
		default:
			count++
		}
	}
	return count
}

// proseOf is the prose and total text under n.
func proseOf(n *html.Node) (prose, total int) {
	var w proseWalker
	o, lk, p, t := w.walk(n, false, false)
	if o >= minProseChars && float64(lk) <= maxProseLinkDensity*float64(o) {
		p += o
	}
	return p, t + o
}

// densestContainer is the element under root whose prose most exceeds
// the rest of its text, and that prose.
func densestContainer(root *html.Node) (*html.Node, int) {
	var best *html.Node
	bestScore, bestProse := 0, 0
	w := proseWalker{onContainer: func(n *html.Node, prose, total int) {
		if s := 2*prose - total; s > bestScore {
			best, bestScore, bestProse = n, s, prose
		}
	}}
	w.walk(root, false, false)
	return best, bestProse
}

// proseKeys maps the start of the text of n's first limit prose blocks
// (all when limit is 0) to their length.
func proseKeys(n *html.Node, limit int) map[string]int {
	keys := map[string]int{}
	count := 0
	w := proseWalker{onProse: func(b *html.Node, chars int) {
		if count++; limit == 0 || count <= limit {
			keys[blockKey(b)] += chars
		}
	}}
	own, linked, _, _ := w.walk(n, false, false)
	if own >= minProseChars && float64(linked) <= maxProseLinkDensity*float64(own) {
		keys[blockKey(n)] += own
	}
	return keys
}

// blockKey is the start of a block's own text, white space collapsed.
func blockKey(b *html.Node) string {
	var sb strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && sb.Len() < 200; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				sb.WriteString(c.Data[:min(len(c.Data), 200)])
				sb.WriteByte(' ')
			case c.Type == html.ElementNode && inline[c.DataAtom]:
				walk(c)
			}
		}
	}
	walk(b)
	k := collapse(sb.String())
	return k[:min(len(k), 80)]
}

// shared is the prose of a whose block is also in b: their overlap.
func shared(a, b map[string]int) int {
	n := 0
	for k, l := range a {
		if _, ok := b[k]; ok {
			n += l
		}
	}
	return n
}

// Bounds on taking the alternative: readability's result shares less than
// maxAltOverlap of its prose with it, the alternative has at least
// minAltProse characters of prose and altFactor times readability's, and
// at most maxAltLinkDensity of its text is in links.
const (
	maxAltOverlap     = 0.2
	minAltProse       = 150
	altFactor         = 2
	maxAltLinkDensity = 0.3
)

// alternative is the densest container (alt, with altProse) when readability's
// result (content) is clearly another block than the article: it shares
// little prose with that container, which has much more of it. nil when
// readability's result stands.
func alternative(alt *html.Node, altProse int, content *html.Node) *html.Node {
	if alt == nil || altProse < minAltProse {
		return nil
	}
	rProse, _ := proseOf(content)
	if altProse < altFactor*rProse || linkDensity(alt) > maxAltLinkDensity {
		return nil
	}
	if rProse > 0 && float64(shared(proseKeys(content, 0), proseKeys(alt, 0))) >= maxAltOverlap*float64(rProse) {
		// readability's block is part of the densest container: the
		// article, unless that block is a teaser card inside it (a
		// related story set in the body), short beside a long body
		if rProse <= maxCardProse && altProse >= cardFactor*rProse {
			return alt
		}
		return nil
	}
	return alt
}

// A teaser card chosen instead of the body it sits in: readability's
// result has at most maxCardProse characters of prose, and the densest
// container around it cardFactor times as much.
const (
	maxCardProse = 400
	cardFactor   = 4
)

// maxBeforeChars bounds the prose that recoverBefore puts back: a lead and
// a subheading or two, not a second article.
const maxBeforeChars = 600

// beforeProbe is how many of readability's first prose blocks
// recoverBefore looks for in the densest container.
const beforeProbe = 20

// recoverBefore returns copies of the prose blocks that open the densest
// container (alt) before the first block readability kept, for the caller to
// put in front of readability's result: a standfirst or an opening
// paragraph set apart from the body (in the article's header, or a
// container of its own), which readability's scoring leaves out. The
// headline, bylines, datelines and captions are left out. Nothing is
// returned when the blocks are fewer than minLeadParagraph characters in
// all (a subtitle, as in lead.go), more than maxBeforeChars, or when the
// container does not hold readability's result.
func recoverBefore(alt, content *html.Node) []*html.Node {
	if alt == nil {
		return nil
	}
	keys := proseKeys(content, beforeProbe)
	var before []*html.Node
	chars, found := 0, false
	w := proseWalker{onProse: func(b *html.Node, n int) {
		if found {
			return
		}
		if _, ok := keys[blockKey(b)]; ok {
			found = true
			return
		}
		if b.DataAtom == atom.H1 || isDateLine(b) || isByline(b) || isCardText(b) || nameHas(b, notBeforeParts) || insideNamed(b, alt, notBeforeParts) {
			return
		}
		before = append(before, b)
		chars += n
	}}
	w.walk(alt, false, false)
	if !found || chars < minLeadParagraph || chars > maxBeforeChars {
		return nil
	}
	out := make([]*html.Node, len(before))
	for i, b := range before {
		c := cloneOwn(b)
		if c.DataAtom != atom.P && !isHeading(c) && c.DataAtom != atom.Blockquote {
			c.DataAtom, c.Data = atom.P, "p"
		}
		out[i] = c
	}
	return out
}

// notBeforeParts are class or id parts of what recoverBefore leaves out:
// the headline, bylines and dates, captions, a media player's messages.
var notBeforeParts = map[string]bool{
	"title": true, "headline": true, "byline": true, "author": true, "authors": true, "date": true,
	"time": true, "meta": true, "caption": true, "credit": true, "credits": true, "signature": true,
	"error": true, "player": true,
}

// isCardText reports whether b is the summary of a teaser card: a block
// right after a heading that is wholly a link (the headline of another
// page), as in a list of latest stories.
func isCardText(b *html.Node) bool {
	h := b.PrevSibling
	for h != nil && h.Type != html.ElementNode {
		h = h.PrevSibling
	}
	return h != nil && isHeading(h) && visibleLen(h) > 0 && linkDensity(h) == 1
}

// maxBylineChars bounds a byline: "By Jane Doe and John Roe, Reuters".
const maxBylineChars = 100

// rxByline matches the word a byline starts with, in the languages of the
// dev sets.
var rxByline = lazyRegexp(`(?i)^\W*(?:by|von|por|par|di|de|door|przez|av|af)\s+(?-i:\p{Lu})`)

// isByline reports whether b is a short block that names the author: it
// starts with "By" or holds an element marked up as the author.
func isByline(b *html.Node) bool {
	if visibleLen(b) > maxBylineChars {
		return false
	}
	if rxByline().MatchString(collapse(textPrefix(b, 40))) {
		return true
	}
	author := false
	walkElements(b, func(e *html.Node) {
		if attrIs(e, "itemprop", "author") || attrIs(e, "itemprop", "creator") || attrIs(e, "rel", "author") {
			author = true
		}
	})
	return author
}

// cloneOwn copies b with its text and inline elements, without the blocks
// inside it.
func cloneOwn(b *html.Node) *html.Node {
	c := &html.Node{Type: b.Type, DataAtom: b.DataAtom, Data: b.Data, Namespace: b.Namespace,
		Attr: append([]html.Attribute(nil), b.Attr...)}
	for ch := b.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.TextNode || ch.Type == html.ElementNode && inline[ch.DataAtom] {
			c.AppendChild(clone(ch))
		}
	}
	return c
}

// insideNamed reports whether an element between n and top (exclusive)
// has a class or id part in parts.
func insideNamed(n, top *html.Node, parts map[string]bool) bool {
	for p := n.Parent; p != nil && p != top; p = p.Parent {
		if nameHas(p, parts) {
			return true
		}
	}
	return false
}
