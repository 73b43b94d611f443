package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Boilerplate removal common to news and blog pages, around readability:
//
//   - removeBoilerplate: elements whose class, id or role names a share
//     bar, paywall notice, related or recommended articles, comment forms
//     and notices, ads or image credits, unless they hold a large share of
//     the text they sit in (a wrapper named "article-share-container"
//     around the whole story). Embedded tweets stay: a story quotes them,
//     and annotators keep them. A comment thread stays for readability to
//     judge (commentThread), and in its result. Newsletter and subscription
//     boxes are not matched by name: the name also marks in-article promos
//     that Readability.js keeps, and the short ones at the content's ends go
//     by their wording (prune.go). Author boxes are not matched either:
//     readability takes a short byline out itself, and an author's note
//     at the content's ends goes with the end matter (endmatter.go).
//     It runs twice. Before readability, it leaves link-dense blocks (a
//     list of related stories) in place: readability's scoring already
//     discounts links, and taking them away first raises the score of the
//     container they sat in, so that readability climbs above the article
//     and takes in the page's furniture. After readability, it runs on the
//     result, where link-dense blocks go too.
//   - pruneContent, on readability's result: "Read also: …" teaser
//     paragraphs. (prune.go trims the ends of the result.)

// maxBoilerShare is the share of the visible text removeBoilerplate works
// on (the page's, then readability's result) above which a
// boilerplate-named element is kept anyway.
const maxBoilerShare = 0.3

// rxBoilerSub matches boilerplate words anywhere in a class or id token.
var rxBoilerSub = lazyRegexp(`(?i)social|sharedaddy|sharebar|paywall|related|recommend|comment|kommentar|copyright|advert|sponsor|addtoany|a2a_|read-?more|readmore|view-more|see-also|more-stories|rec-posts|suggestion|promo|signup|sign-up|print-button|rating|postmetadata|entry-utility|breadcrumb|cookie|consent`)

// boilerParts are boilerplate words that must be a whole part of a class or
// id token split at - and _ ("ad" in "proper-ad-unit", not in "header").
var boilerParts = map[string]bool{
	"ad": true, "ads": true, "adv": true, "advert": true, "credit": true, "credits": true,
	"tags": true, "tag": true, "share": true, "shares": true, "sharing": true, "dateline": true,
}

// boilerRoles are ARIA roles of page furniture.
var boilerRoles = map[string]bool{"complementary": true, "navigation": true, "banner": true, "contentinfo": true}

// boilerName reports whether an element's class, id or role names
// boilerplate.
func boilerName(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "role":
			if boilerRoles[strings.ToLower(strings.TrimSpace(a.Val))] {
				return true
			}
		case "class", "id":
			for _, tok := range strings.Fields(a.Val) {
				// a BEM modifier (block--ads) or a taxonomy class
				// (tag-comments, category-social) describes, not names
				if i := strings.Index(tok, "--"); i >= 0 {
					tok = tok[:i]
				}
				// an id of four or more words is a heading's slug
				// (id="sharing-with-a-single-developer"), not a name
				if a.Key == "id" && slugLike(tok) {
					continue
				}
				// "non-paywall", "no-ads" negate the name
				if l := strings.ToLower(tok); strings.HasPrefix(l, "non-") || strings.HasPrefix(l, "no-") || strings.HasPrefix(l, "tag-") || strings.HasPrefix(l, "category-") || strings.HasPrefix(l, "is") && strings.ContainsAny(tok[min(2, len(tok)):min(3, len(tok))], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
					continue
				}
				if rxBoilerSub().MatchString(tok) {
					return true
				}
				for _, p := range strings.FieldsFunc(strings.ToLower(tok), func(r rune) bool { return r == '-' || r == '_' }) {
					if boilerParts[p] {
						return true
					}
				}
			}
		}
	}
	return false
}

// minThreadComments is how many comment-named elements make a thread.
const minThreadComments = 2

// rxComment matches a class or id token that names a comment.
var rxComment = lazyRegexp(`(?i)comment|kommentar`)

// commentThread reports whether n is a comment-named element that holds a
// thread of comments (several comment-named elements under it) rather
// than a comment form, a login prompt or a comment policy. Readability
// decides about a thread: it keeps one that sits in the article's
// container, as Readability.js does.
func commentThread(n *html.Node) bool {
	if !nameMatches(n, rxComment()) {
		return false
	}
	count := 0
	walkElements(n, func(e *html.Node) {
		if count < minThreadComments && (e.DataAtom == atom.Li || e.DataAtom == atom.Article) && nameMatches(e, rxComment()) {
			count++
		}
	})
	return count >= minThreadComments
}

// nameMatches reports whether a class or id token of n matches rx.
func nameMatches(n *html.Node, rx *regexp.Regexp) bool {
	for _, a := range n.Attr {
		if (a.Key == "class" || a.Key == "id") && rx.MatchString(a.Val) {
			return true
		}
	}
	return false
}

// slugLike reports whether an id token has four or more words: the slug
// of a heading or title rather than the name of a page component.
func slugLike(tok string) bool {
	return len(strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '_' })) >= 4
}

// maxPreLinkDensity is the link density above which removeBoilerplate
// leaves a block for readability to judge when it runs before it.
const maxPreLinkDensity = 0.5

// removeBoilerplate removes boilerplate-named block elements with text
// under root that hold less than maxBoilerShare of its text, text chars.
// Before readability (before), link-dense blocks stay.
func removeBoilerplate(root *html.Node, text int, before bool) {
	limit := int(maxBoilerShare * float64(text))
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				switch {
				case c.DataAtom == atom.Html || c.DataAtom == atom.Body || c.DataAtom == atom.Main || c.DataAtom == atom.Article:
					walk(c)
				case commentThread(c):
					// kept whole: readability decides about it
				case boilerBlock[c.DataAtom] && boilerName(c):
					if l := visibleLen(c); l > 0 && l <= limit && !(before && linkDensity(c) > maxPreLinkDensity) {
						n.RemoveChild(c)
					} else {
						walk(c)
					}
				default:
					walk(c)
				}
			}
			c = next
		}
	}
	walk(root)
}

// boilerBlock are the elements removeBoilerplate may remove: blocks, not
// inline spans and links, whose removal perturbs readability's scoring.
var boilerBlock = map[atom.Atom]bool{
	atom.Div: true, atom.Section: true, atom.Aside: true, atom.Ul: true, atom.Ol: true, atom.P: true,
	atom.Figure: true, atom.Form: true, atom.Nav: true, atom.Footer: true, atom.Header: true,
	atom.Blockquote: true, atom.Dl: true, atom.Table: true,
}

// rxTeaser matches the label of an inline "read also" teaser paragraph, in
// the languages of the dev sets.
var rxTeaser = lazyRegexp(`(?i)^\s*(?:read (?:more|also)|see also|also read|lea (?:también|más)|lee (?:también|más)|lea|mire|mira|vea también|ver también|le puede interesar|te puede interesar|puedes ver|veja também|leia também|leia mais|lesen sie auch|lesen sie mehr|mehr zum thema|auch interessant|schon gelesen\??|czytaj (?:też|także|więcej)|zobacz też|lire aussi|à lire aussi|voir aussi|leggi anche)\s*[:?!]`)

// maxTeaserLen bounds the text of a teaser block.
const maxTeaserLen = 300

// isTeaser reports whether n is a short block labelled "Read also:". The
// label is looked for in the first bytes of the text only, so that a long
// page costs no copy of its text.
func isTeaser(n *html.Node) bool {
	if visibleLen(n) >= maxTeaserLen || !rxTeaser().MatchString(collapse(textPrefix(n, 120))) {
		return false
	}
	return len(collapse(textOf(n))) < maxTeaserLen
}

// textPrefix is the text under n, without its leading white space, cut
// after its first max bytes.
func textPrefix(n *html.Node, max int) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && b.Len() < max; c = c.NextSibling {
			if c.Type == html.TextNode {
				t := c.Data
				if b.Len() == 0 {
					// indentation before the text does not count
					t = strings.TrimLeft(t, " \t\r\n\f")
				}
				b.WriteString(t[:min(len(t), max-b.Len())])
			}
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// pruneContent removes short "Read also: <link>" teaser blocks from
// readability's result.
func pruneContent(root *html.Node) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				switch c.DataAtom {
				case atom.P, atom.Li, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote:
					if isTeaser(c) {
						n.RemoveChild(c)
					} else {
						walk(c)
					}
				default:
					walk(c)
				}
			}
			c = next
		}
	}
	walk(root)
}
