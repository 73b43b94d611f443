package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestFlattenNestedHeadings: a heading that holds a heading becomes a
// <div>; the innermost stays a heading, and the text is all kept.
func TestFlattenNestedHeadings(t *testing.T) {
	doc := "<body>" + strings.Repeat("<h2><div>", 50) + "words of the text" + strings.Repeat("</div></h2>", 50) + "<h3>Alone</h3></body>"
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	body := find(root, atom.Body)
	flattenNestedHeadings(body)
	headings := 0
	walkElements(body, func(e *html.Node) {
		if !isHeading(e) {
			return
		}
		headings++
		walkElements(e, func(in *html.Node) {
			if isHeading(in) {
				t.Errorf("<%s> still holds <%s>", e.Data, in.Data)
			}
		})
	})
	if headings != 2 {
		t.Errorf("%d headings left, want 2 (the innermost and the lone one)", headings)
	}
	if got := collapse(textOf(body)); got != "words of the textAlone" {
		t.Errorf("text = %q", got)
	}
}

// TestShortenWrapperChains: a chain of single-child wrappers longer than
// maxWrapperChain is cut to that length; the text and the elements at the
// bottom stay, and wrappers with more than one child are not touched.
func TestShortenWrapperChains(t *testing.T) {
	doc := "<body>" + strings.Repeat("<div>", 300) + "<p>the text</p><p>more</p>" + strings.Repeat("</div>", 300) +
		"<div><div>a</div><div>b</div></div></body>"
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	body := find(root, atom.Body)
	shortenWrapperChains(body)
	depth := 0
	for n := body.FirstChild; n != nil && n.DataAtom == atom.Div; n = n.FirstChild {
		depth++
	}
	if depth > maxWrapperChain+1 {
		t.Errorf("chain of %d wrappers left, want at most %d", depth, maxWrapperChain+1)
	}
	if got := collapse(textOf(body)); got != "the textmoreab" {
		t.Errorf("text = %q", got)
	}
	if ps := len(findAll(body, atom.P)); ps != 2 {
		t.Errorf("%d paragraphs, want 2", ps)
	}
}

// findAll lists the elements under n with tag a.
func findAll(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	walkElements(n, func(e *html.Node) {
		if e.DataAtom == a {
			out = append(out, e)
		}
	})
	return out
}
