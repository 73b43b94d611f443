package extract

import (
	"iter"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// The title printed again. Many pages open the article with its headline
// as a heading; web_fetch returns the title in its own field, and people
// who mark an article's text leave the headline out. dropTitleHeading
// removes a heading that repeats the title (the same words, or most of
// them: a title often adds the site's name) when only a few short blocks
// (a kicker, a date) stand above it, and those blocks with it.

// minTitleShare is the share of the longer of heading and title that the
// shorter must make up for the heading to count as the title again.
const minTitleShare = 0.6

// dropTitleHeading removes the heading that repeats title when at most
// maxBeforeTitle short blocks stand above it (a kicker, a category, a
// date set above the headline), and those blocks too. It reports whether
// it removed the heading.
func dropTitleHeading(content *html.Node, title string) bool {
	t := titleKey(title)
	if t == "" {
		return false
	}
	var above []*html.Node
	chars := 0
	for b := range leadingBlocks(content, maxBeforeTitle+1) {
		if isHeading(b) && repeatsTitle(textOf(b), t) {
			for _, a := range above {
				a.Parent.RemoveChild(a)
			}
			b.Parent.RemoveChild(b)
			return true
		}
		l := visibleLen(b)
		chars += l
		if l > maxAboveTitleChars || chars > maxAboveTitleTotal {
			return false
		}
		above = append(above, b)
	}
	return false
}

// What may stand above the headline: at most maxBeforeTitle blocks of at
// most maxAboveTitleChars each and maxAboveTitleTotal in all.
const (
	maxBeforeTitle     = 4
	maxAboveTitleChars = 80
	maxAboveTitleTotal = 160
)

// repeatsTitle reports whether heading is the title again (key is
// titleKey(title)).
func repeatsTitle(heading, key string) bool {
	h := titleKey(heading)
	if h == "" {
		return false
	}
	short, long := h, key
	if len(short) > len(long) {
		short, long = long, short
	}
	if !strings.Contains(long, short) {
		return false
	}
	// a title adds the site's name (and its section) before or after the
	// headline: "Headline - Site", "Site | Headline"
	return float64(len(short)) >= minTitleShare*float64(len(long)) ||
		short == h && utf8.RuneCountInString(h) >= minHeadlineChars && (strings.HasPrefix(key, h) || strings.HasSuffix(key, h))
}

// minHeadlineChars is the length from which a heading that opens or
// closes the title is taken for the headline however long the rest.
const minHeadlineChars = 15

// leadingBlocks yields the first max blocks of content with visible text,
// in order, descending through wrappers (firstBlock's blocks).
func leadingBlocks(content *html.Node, max int) iter.Seq[*html.Node] {
	return func(yield func(*html.Node) bool) {
		n := 0
		var walk func(p *html.Node) bool
		walk = func(p *html.Node) bool {
			for c := p.FirstChild; c != nil; c = c.NextSibling {
				switch {
				case c.Type == html.TextNode:
					if strings.TrimSpace(c.Data) != "" {
						return false
					}
				case c.Type != html.ElementNode || visibleLen(c) == 0:
				case isContainer(c) && !isList(c):
					if !walk(c) {
						return false
					}
				default:
					n++
					if n > max || !yield(c) {
						return false
					}
				}
			}
			return true
		}
		walk(content)
	}
}

// titleKey is s lower-cased with white space collapsed, for comparing a
// heading with the title.
func titleKey(s string) string {
	return strings.ToLower(collapse(s))
}
