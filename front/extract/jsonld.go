package extract

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// JSON-LD fallback. Some news pages render the article with script and
// ship its text only in their schema.org metadata (NewsArticle,
// articleBody). When the extracted content is very short and the page's
// JSON-LD holds a much longer articleBody, that text is the content.

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

// ldContent is the articleBody as a <div> of paragraphs: parsed as HTML
// when it holds tags, else one paragraph per line.
func ldContent(body string) *html.Node {
	div := &html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div"}
	if strings.Contains(body, "</") || strings.Contains(body, "<p") || strings.Contains(body, "<br") {
		nodes, err := html.ParseFragment(strings.NewReader(body), div)
		if err == nil {
			for _, n := range nodes {
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

// useLD reports whether the articleBody ld should replace content, whose
// visible text has n characters.
func useLD(ld string, n int) bool {
	if n >= minChars {
		return false
	}
	l := visibleRunes(ld)
	return l >= minLDBodyChars && l >= ldFactor*n
}
