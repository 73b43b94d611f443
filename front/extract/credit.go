package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Credits. People reading an article for its text leave out who took its
// pictures: "Photo: NAME, AP", "(Image: GETTY)", "© Agency", a credit
// line under a picture. They are found by structure, not by one site's
// names: an element whose class or id names a credit or copyright (words
// every CMS uses), and short lines worded as a credit. The picture stays
// (its Markdown image link).
//
// A caption that carries a credit goes whole with it ("The harbour at
// dawn. Photo: NAME/AFP"): on news pages that is the usual caption.
// Captions without a credit stay, although the annotators of the
// trafilatura set leave them out too: removing every <figcaption> and
// caption-named element gained 0.004 more snippet F1 there, but cost the
// Mozilla set (whose truth, Readability.js's output, keeps captions)
// another 0.005, through its floor of 0.99.

// creditParts are the class and id words that name a credit (whole parts
// of a token split at -, _ and case changes: "photo-credit",
// "imageCredits", "copyright-note").
var creditParts = map[string]bool{"credit": true, "credits": true, "copyright": true}

// maxCaptionChars bounds a credit removed for its name: a credit is a
// line, a caption that holds one a sentence or two. Past it, the element
// is more likely a story's body under an unlucky name.
const maxCaptionChars = 400

// maxCreditChars bounds a line removed for its wording as a credit.
const maxCreditChars = 100

// rxCredit matches a line that credits a picture: "Photo: …", "Foto: …",
// "Crédits photos : …", "(Credit: …)", "Image: GETTY", "© …",
// "Photograph by …", "Bild: …", or a line that ends in an agency's name
// in parentheses or after a slash ("(NAME/AFP/Getty Images)"). A
// sentence that names an agency ("…, Reuters reported.") is not a credit.
var rxCredit = lazyRegexp(`(?i)^\W*(?:photos?|fotos?|foto ?credits?|images?|imagen|bild(?:er)?|credits?|crédits?(?: photos?)?|picture|pictures|getty images|copyright|zdjęcie|fot\.)\s*[:©/]|^\W*©|^\W*photograph(?:ed)? by\b|(?:\([^()]*\b|/\s*)(?:getty images|istock(?:\.com|photo)?|shutterstock|unsplash|dpa|afp|reuters|ap photo|ap)\)?\W*$`)

// pruneCredits removes picture credits from the content: credit-named
// elements and captions (<figcaption>, caption-named) that hold a credit,
// up to maxCaptionChars, and short blocks worded as a credit; none holding
// a picture (only the elements around it are judged) nor the blocks of a
// section.
func pruneCredits(root *html.Node) {
	removeIf(root, func(n *html.Node) bool {
		// the cheap tests first, and no count of text past the largest
		// bound: every element of the content is judged
		t := tag(n)
		credit := nameHas(n, creditParts)
		caption := t == atom.Figcaption || nameHas(n, captionParts)
		line := false
		switch t {
		case atom.P, atom.Div, atom.Span, atom.Em, atom.I, atom.Small, atom.Cite, atom.Figcaption:
			line = true
		}
		if !credit && !caption && !line {
			return false
		}
		l, ok := visibleAtMost(n, maxCaptionChars)
		if !ok || l == 0 || holdsMedia(n) {
			return false
		}
		if (credit || caption) && holdsBlocks(n) {
			return false
		}
		if credit {
			return true
		}
		text := collapse(textOf(n))
		if caption && rxCreditInside().MatchString(text) {
			return true
		}
		return line && l <= maxCreditChars && rxCredit().MatchString(text)
	})
}

// visibleAtMost counts the non-space characters of the text under n, as
// visibleLen does, and stops past max: ok is false when there are more.
func visibleAtMost(n *html.Node, max int) (count int, ok bool) {
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.TextNode {
			count += visibleRunes(n.Data)
			if count > max {
				return false
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	return count, walk(n)
}

// captionParts are the class and id words that name a caption
// ("wp-caption-text", "imageCaption", "legend").
var captionParts = map[string]bool{"caption": true, "captions": true, "figcaption": true, "legend": true}

// rxCreditInside matches a credit anywhere in a caption: "Foto: …",
// "(Quelle: …)", "©", "NAME/Getty Images", "Photograph by".
var rxCreditInside = lazyRegexp(`(?i)\b(?:photos?|fotos?|bild|image|imagen|credit|crédits?|quelle|source|fuente)\s*:|©|\(c\)|/\s*(?:getty|afp|dpa|reuters|ap|istock|unsplash)\b|\bgetty images\b|photograph(?:ed)? by`)

// holdsMedia reports whether n holds a picture, which a credit-named
// wrapper carries with its credit.
func holdsMedia(n *html.Node) bool {
	return find(n, atom.Img) != nil || find(n, atom.Picture) != nil || find(n, atom.Video) != nil
}

// holdsBlocks reports whether n holds headings or several paragraphs:
// the text of a section, not a caption.
func holdsBlocks(n *html.Node) bool {
	paragraphs := 0
	found := false
	walkElements(n, func(e *html.Node) {
		switch tag(e) {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Table:
			found = true
		case atom.P:
			paragraphs++
		}
	})
	return found || paragraphs > 1
}
