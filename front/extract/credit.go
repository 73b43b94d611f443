package extract

import (
	"strconv"
	"strings"

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
// Captions go too, whole: a <figcaption>, a caption-named element, a
// line worded as a credit or ending in one ("The harbour at dawn. Foto:
// Andina"), and the line set under a picture in the picture's own
// paragraph. People who mark an article's text leave captions out; the
// Mozilla set, whose truth is Readability.js's output, keeps them, and
// loses about 0.006 F1 for it (docs/performance.md has the figures).

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
var rxCredit = lazyRegexp(`(?i)^\W*(?:getty images|ap photo|associated press|afp|reuters|shutterstock|istock(?:photo)?|alamy(?: stock photo)?|epa(?:-efe)?|dpa|picture alliance|imago(?: images)?)(?:\s*(?:/|via)\s*[\p{L} .]{1,40})?\W*$|^\W*(?:image source|image caption)\s*,|^\W*(?:(?:photo|image|bild|foto) (?:source|quelle|credits?)|featured image|header image|titelbild|beitragsbild|photos?|photographs?|fotos?|foto ?credits?|images?|image credits?|image source|imagen|bild(?:er)?|credit|crédits?(?: photos?)?|picture|pictures|illustration|composite|getty images|copyright|zdjęcie|fot\.)\s*[:©/]|^\W*©|^\W*(?:featured image|header image|photograph(?:ed)?|photo|image|illustration|video|foto|bild) by\s+(?-i:\p{Lu})[^.!?]{0,60}\W*$|(?:(?:^\W*|[.!?]\s*)\([^()]*\b|/\s*)(?:getty images|istock(?:\.com|photo)?|shutterstock|unsplash|dpa|afp|reuters|ap photo|ap)\)?\W*$`)

// pruneCredits removes picture credits and captions from the content:
// credit-named elements and captions (<figcaption>, caption-named) up to
// maxCaptionChars, short blocks worded as a credit, and blocks that end in
// one; none holding a picture (only the elements around it are judged)
// nor the blocks of a section.
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
		if caption {
			return true
		}
		if !line || inlineInText(n) {
			return false
		}
		return l <= maxCreditChars && rxCredit().MatchString(text) || rxCreditTail().MatchString(text)
	})
}

// inlineInText reports whether n is an inline element set in running
// text ("the DPA of the CNRS", "on <a><span>Twitter</span></a>"): beside
// it, or beside the inline elements around it (a link, emphasis), stands
// text, so it is a word of a sentence, not a line. Blocks beside it do
// not count: a credit set after a picture in a wrapper is still a line.
func inlineInText(n *html.Node) bool {
	switch tag(n) {
	case atom.Span, atom.Em, atom.I, atom.Small, atom.Cite, atom.A:
	default:
		return false
	}
	for c := n; c.Parent != nil; c = c.Parent {
		if wordBeside(c.PrevSibling, prevSibling) || wordBeside(c.NextSibling, nextSibling) {
			return true
		}
		if p := c.Parent; p.Type != html.ElementNode || !inline[tag(p)] {
			return false
		}
	}
	return false
}

func prevSibling(n *html.Node) *html.Node { return n.PrevSibling }
func nextSibling(n *html.Node) *html.Node { return n.NextSibling }

// wordBeside reports whether the first sibling from s on (stepping with
// step) that is not white space is text or an inline element with text.
func wordBeside(s *html.Node, step func(*html.Node) *html.Node) bool {
	for ; s != nil; s = step(s) {
		switch {
		case s.Type == html.TextNode:
			if visibleRunes(s.Data) > 0 {
				return true
			}
		case s.Type == html.ElementNode:
			return inline[tag(s)] && visibleLen(s) > 0
		}
	}
	return false
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

// rxCreditTail matches a caption that ends in its picture's credit:
// "The harbour at dawn. Foto: Andina", "NAME, photo: Archives …",
// "… | © Agency", "… (Photo: NAME/AP)".
var rxCreditTail = lazyRegexp(`(?i)(?:\((?:ap|afp|reuters|dpa|epa|getty)?\s*(?:photo|foto|image)s?\s*(?:by\s+|/\s*)[^()]{1,60}\)|(?:^|[.!?|,(]\s*)(?:all\s+)?(?:photos?|fotos?|bild|image|imagen|credit|crédits?(?: photos?)?|photo credit)\s*:\s*(?-i:\p{Lu})[^.:;!?]{0,60}|©\s*(?-i:[\p{Lu}\d])[^.;!?]{0,60}|/\s*(?:getty images|afp|dpa|reuters|ap|istock|shutterstock|unsplash))\W*$`)

// maxImageCaptionChars bounds the text set after a picture in its own
// block that is taken for the picture's caption: a sentence or two.
const maxImageCaptionChars = 250

// maxLineCaptionChars bounds a caption recognised only by its place, on
// the line under the picture: a line. Longer, it is as often the post.
const maxLineCaptionChars = 150

// maxCaptionShare is the largest share of the content's text that one
// caption set under its picture may be.
const maxCaptionShare = 0.2

// pruneImageCaptions removes the caption set in the same block as its
// picture, after it: a paragraph that opens with a picture (linked or
// not) and holds nothing but a short text after it. The picture stays.
// A paragraph that opens with a small inline picture (an emoji, an icon)
// is running text and stays whole.
func pruneImageCaptions(root *html.Node) {
	total := visibleLen(root)
	walkElements(root, func(n *html.Node) {
		switch tag(n) {
		case atom.P, atom.Div:
		default:
			return
		}
		first := firstChildElement(n)
		if first == nil || !isPictureOnly(first) {
			return
		}
		l, ok := visibleAtMost(n, maxImageCaptionChars)
		// a short post may be a picture and a few lines under it: what is
		// most of the text is not a caption
		if !ok || l == 0 || float64(l) > maxCaptionShare*float64(total) || holdsBlocks(n) {
			return
		}
		for c := first.NextSibling; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (holdsMedia(c) || isContainer(c) && tag(c) != atom.Span) {
				return
			}
		}
		// set on a line of its own under the picture, or worded as a
		// caption ("Abbildung 2: …", "Fig. 3 …")
		labelled := rxFigureLabel().MatchString(collapse(textOf(n)))
		if next := nextChildElementOrText(first); !labelled && (next == nil || tag(next) != atom.Br || l > maxLineCaptionChars) {
			return
		}
		for c := first.NextSibling; c != nil; {
			next := c.NextSibling
			n.RemoveChild(c)
			c = next
		}
	})
}

// rxFigureLabel matches the label that opens a figure's caption.
var rxFigureLabel = lazyRegexp(`(?i)^\W*(?:abbildung|abb\.|figure|fig\.|grafik|schaubild|figura|ilustración|rycina|ryc\.)\s*\d*\s*[:.]`)

// nextChildElementOrText is the sibling after n that is an element or text
// that is not white space.
func nextChildElementOrText(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode || c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return c
		}
	}
	return nil
}

// firstChildElement is n's first child that is an element or text that is
// not white space, if it is an element.
func firstChildElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return nil
			}
		case html.ElementNode:
			return c
		}
	}
	return nil
}

// minPictureSide is the smallest declared width or height of a picture
// that a caption is written for; below it the picture is an icon or an
// emoji set in a line of text.
const minPictureSide = 100

// isPictureOnly reports whether n is a picture, or a link or wrapper that
// holds one and no text, of a size a caption is written for.
func isPictureOnly(n *html.Node) bool {
	if visibleLen(n) != 0 {
		return false
	}
	img := n
	if tag(n) != atom.Img {
		img = find(n, atom.Img)
	}
	if img == nil {
		return false
	}
	for _, k := range []string{"width", "height"} {
		if v, ok := attr(img, k); ok {
			if px, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "px")); err == nil && px < minPictureSide {
				return false
			}
		}
	}
	return !nameHas(img, emojiParts)
}

// emojiParts are the class words of a picture set in a line of text.
var emojiParts = map[string]bool{"emoji": true, "smiley": true, "icon": true, "wp-smiley": true}

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
