package extract

import (
	"context"
	"encoding/json"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rypsok/rypsok/front/htmlparse"
)

// JSON-LD fallback. When the extracted content is very short and the
// page's JSON-LD holds a much longer articleBody (schema.org NewsArticle)
// that the page shows, that text is the content: readability missed the
// story, and the metadata gives it back in paragraphs.
//
// Only when the page shows it (shownLD): the metadata is not rendered, so
// text found only there is hidden text like any other (REQ-CTX-005). A
// page rendered by script that ships its story only in JSON-LD yields
// what it shows, and an articleBody that adds a sentence to the story
// the page shows is not used.

// Bounds on the fallback: the extracted content has fewer than
// minChars characters and the articleBody at least minLDBodyChars and
// ldFactor times as many.
const (
	minLDBodyChars = 500
	ldFactor       = 2
	// maxLDScript bounds the JSON-LD script parsed.
	maxLDScript = 1 << 20
)

// ldArticleBody is the longest articleBody in the page's JSON-LD scripts,
// "" when there is none. It reads the scripts before removeHidden drops
// them.
func ldArticleBody(root *html.Node) string {
	best := ""
	walkElements(root, func(n *html.Node) {
		if n.DataAtom != atom.Script || !attrIs(n, "type", "application/ld+json") || n.FirstChild == nil {
			return
		}
		src := textOf(n)
		if len(src) > maxLDScript || !strings.Contains(src, "articleBody") {
			return
		}
		var v any
		if json.Unmarshal([]byte(src), &v) != nil {
			return
		}
		if b := findArticleBody(v, 0); len(b) > len(best) {
			best = b
		}
	})
	return best
}

// findArticleBody is the longest "articleBody" string in v, searched to a
// bounded depth.
func findArticleBody(v any, depth int) string {
	if depth > 8 {
		return ""
	}
	best := ""
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == "articleBody" {
				if len(s) > len(best) {
					best = s
				}
				continue
			}
			if b := findArticleBody(x, depth+1); len(b) > len(best) {
				best = b
			}
		}
	case []any:
		for _, x := range t {
			if b := findArticleBody(x, depth+1); len(b) > len(best) {
				best = b
			}
		}
	}
	return best
}

// ldTreeBudget bounds the tree of an articleBody parsed as HTML, as
// TreeBudget bounds the page's: the articleBody is the page author's
// markup too.
const ldTreeBudget = TreeBudget / 4

// ldContent is the articleBody as a <div> of paragraphs: parsed as HTML
// (the body of a document holding it, within ldTreeBudget) when it holds
// tags, else one paragraph per line.
func ldContent(body string) *html.Node {
	div := &html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div"}
	if strings.Contains(body, "</") || strings.Contains(body, "<p") || strings.Contains(body, "<br") {
		root, _, err := htmlparse.Parse(context.Background(), strings.NewReader("<body>"+body), ldTreeBudget)
		if b := bodyOf(root, err); b != nil {
			for b.FirstChild != nil {
				n := b.FirstChild
				b.RemoveChild(n)
				div.AppendChild(n)
			}
			removeHidden(div)
			return div
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		p := &html.Node{Type: html.ElementNode, DataAtom: atom.P, Data: "p"}
		p.AppendChild(&html.Node{Type: html.TextNode, Data: line})
		div.AppendChild(p)
	}
	return div
}

// bodyOf is the body of a parsed document, nil when it did not parse.
func bodyOf(root *html.Node, err error) *html.Node {
	if err != nil {
		return nil
	}
	return find(root, atom.Body)
}

// useLD reports whether the articleBody ld should replace content, whose
// visible text has n characters.
func useLD(ld string, n int) bool {
	if n >= minChars {
		return false
	}
	l := visibleRunes(ld)
	return l >= minLDBodyChars && l >= ldFactor*n
}

// Agreement of an articleBody with the page: its text, letters and digits
// only and lower-cased, is cut into pieces of shingleRunes characters
// (about three words; a short phrase of Chinese or Japanese). At least
// minShownShare of the pieces must appear in the page's visible text, and
// no more than maxMissingRun pieces in a row may be missing: markup,
// case, punctuation and a stray word do not matter, a phrase or sentence
// the page does not show does.
const (
	shingleRunes  = 16
	minShownShare = 0.95
	maxMissingRun = 1
)

// shownLD is ld when the page shows its text under body, from which
// removeHidden has removed what a reader does not see; "" otherwise, or
// when ld is too short to be used anyway.
func shownLD(ld string, body *html.Node) string {
	if visibleRunes(ld) < minLDBodyChars {
		return ""
	}
	pieces := ldPieces(ld)
	if len(pieces) == 0 {
		return ""
	}
	seen := make(map[uint64]bool, len(pieces))
	for _, h := range pieces {
		seen[h] = false
	}
	r := newRoller()
	forLetters(body, func(c rune) {
		if h, ok := r.push(c); ok {
			if _, want := seen[h]; want {
				seen[h] = true
			}
		}
	})
	missing, run := 0, 0
	for _, h := range pieces {
		if seen[h] {
			run = 0
			continue
		}
		missing++
		if run++; run > maxMissingRun {
			return ""
		}
	}
	if float64(len(pieces)-missing) < minShownShare*float64(len(pieces)) {
		return ""
	}
	return ld
}

// ldPieces are the hashes of the pieces of the text ld renders as (its
// tags and hidden parts left out), in order; the last piece is the last
// shingleRunes characters.
func ldPieces(ld string) []uint64 {
	var pieces []uint64
	r := newRoller()
	forLetters(ldContent(ld), func(c rune) {
		if h, ok := r.push(c); ok && r.n%shingleRunes == 0 {
			pieces = append(pieces, h)
		}
	})
	if r.n%shingleRunes != 0 && r.n > shingleRunes {
		pieces = append(pieces, r.h)
	}
	return pieces
}

// forLetters calls fn with each letter and digit of the text under n,
// lower-cased, in document order.
func forLetters(n *html.Node, fn func(rune)) {
	if n.Type == html.TextNode {
		for _, c := range n.Data {
			if unicode.IsLetter(c) || unicode.IsDigit(c) {
				fn(unicode.ToLower(c))
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		forLetters(c, fn)
	}
}

// roller is a rolling polynomial hash of the last shingleRunes runes
// pushed. Make it with newRoller.
type roller struct {
	win [shingleRunes]rune
	n   int
	h   uint64
	// top is rollBase to the power shingleRunes-1, the weight of the
	// oldest rune in the window.
	top uint64
}

// rollBase is the hash's base, a prime.
const rollBase = 1_000_003

func newRoller() roller {
	r := roller{top: 1}
	for range shingleRunes - 1 {
		r.top *= rollBase
	}
	return r
}

// push adds c and returns the hash of the window, ok once it is full.
func (r *roller) push(c rune) (uint64, bool) {
	i := r.n % shingleRunes
	if r.n >= shingleRunes {
		r.h -= uint64(r.win[i]) * r.top
	}
	r.win[i] = c
	r.h = r.h*rollBase + uint64(c)
	r.n++
	return r.h, r.n >= shingleRunes
}
