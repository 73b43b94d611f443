package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A heading printed twice. A page sets its standfirst both as a heading
// and as the first paragraph, or prints it as a heading again under the
// picture; the reader needs it once. dropDuplicateHeadings removes a
// heading whose text a paragraph holds too, and the later of two equal
// headings. Paragraphs are never removed for repeating: an FAQ repeats
// its answers on purpose.

// minDuplicateChars is the length from which a heading equal to another
// block is taken for that block printed twice: a short heading ("Yes",
// "Day 7") repeats on purpose.
const minDuplicateChars = 40

// maxDuplicateChars bounds a block compared with the others: a standfirst
// is a few lines.
const maxDuplicateChars = 600

// dropDuplicateHeadings removes headings that repeat another block. A
// heading inside a heading (a template nests them) is judged with the
// outer one, not as its copy.
func dropDuplicateHeadings(content *html.Node) {
	headings := map[string][]*html.Node{}
	paragraphs := map[string]bool{}
	walkElements(content, func(n *html.Node) {
		if !isHeading(n) && tag(n) != atom.P || underHeading(n) {
			return
		}
		// a block printed twice is a line or two: longer ones are not
		// keyed (and the key of a huge block is not built)
		if l, ok := visibleAtMost(n, maxDuplicateChars); !ok || l < minDuplicateChars {
			return
		}
		key := strings.ToLower(collapse(textOf(n)))
		switch {
		case isHeading(n):
			headings[key] = append(headings[key], n)
		case !holdsBlocks(n):
			paragraphs[key] = true
		}
	})
	for key, hs := range headings {
		if !paragraphs[key] {
			hs = hs[1:]
		}
		for _, h := range hs {
			if h.Parent != nil {
				h.Parent.RemoveChild(h)
			}
		}
	}
}

// underHeading reports whether n sits inside a heading: a heading nested
// in a heading, or a <p> that readability made of a heading's <div>.
func underHeading(n *html.Node) bool {
	return hasAncestor(n, isHeading)
}
