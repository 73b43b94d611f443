// Package extract turns a fetched HTML (or XHTML) document into its main
// content as Markdown: charset decoding, removal of hidden and non-rendered
// content, a readability pass with a fallback, and conversion to Markdown.
// It runs no script and follows no meta refresh. Pure: no I/O.
//
// The steps of HTML, in order:
//
//  1. Parse with golang.org/x/net/html, then bound the tree: subtrees
//     deeper than maxDepth and every node after the first maxNodes are cut
//     (Result.Partial).
//  2. Remove what a browser does not render or the author hid (REQ-CTX-005,
//     hidden.go): script, style, template, noscript, iframe, frame(set),
//     object, embed, canvas, comments, closed dialogs, the desc and title
//     of SVG drawings, any element with the hidden attribute,
//     aria-hidden="true", or an inline style that hides it as a browser
//     reads the style (style.go: display:none, transparent, off the page,
//     clipped, collapsed or scaled to nothing), and text that
//     visibility:hidden or a font too small to see hides. The style
//     attribute of what stays is taken off, so that readability does not
//     judge it again. (Form controls and svg are rendered, so they stay;
//     dropping them measured slightly worse. A fallback image marked
//     aria-hidden, the picture of a formula whose MathML is hidden, is what
//     the browser shows: it stays, as in Readability.js.)
//     Then make a heading that holds a heading a <div>, and cut chains of
//     single-child wrappers to maxWrapperChain (heading.go): readability
//     reads each ancestor's text, and a tower of either around a long
//     text cost more than a minute.
//  3. Remove boilerplate blocks named by class, id or role, except
//     link-dense ones (boiler.go).
//  4. Run readability (codeberg.org/readeck/go-readability/v2), keeping
//     classes for the passes below. When it finds nothing, or its text is
//     short both in absolute terms and relative to the page's visible
//     text, fall back to the page's single <article>, its <main>, or the
//     cleaned <body> without nav/header/footer/aside (Result.Partial),
//     taken from the tree after readability (which only prepares it), so
//     that no copy is made up front. A document nested deeper than
//     x/net/html accepts (512) is flattened below depth 256 and parsed
//     again (Result.Partial).
//     When readability's result shares little prose with the page's
//     densest prose container, which has much more of it (a newsletter
//     form, a teaser list), or is a short block inside that container
//     with at most a quarter of its prose (a related-story card set in
//     the body), take that container instead (density.go).
//  5. Put back the lead (an opening paragraph set apart as a standfirst)
//     readability left out (lead.go), and the prose that opens the densest
//     container before readability's first block (density.go). Remove the
//     boilerplate-named blocks left in the result, link-dense ones
//     included (boiler.go). Drop "Read also: …" teaser blocks, ad labels
//     and short linked calls to action anywhere, and the navigation, calls
//     to action, datelines, bylines, the page's address, authors'
//     notes and end matter (copyright, "Reporting by", disclaimers) at
//     the content's ends (prune.go, endmatter.go), a heading that
//     announces other pages ("You might also like") in the content's last
//     part with everything after it (endmatter.go), and
//     picture credits and captions, paywall and membership pitches,
//     "Updated …" stamps, gallery counters, linked "Related: …" teasers
//     and interface text ("Share", "Load more", "5 min read") anywhere
//     (credit.go, inbody.go, prune.go), embedded posts' account lines
//     (social.go), a press contact at the end (endmatter.go), and runs of
//     linked headlines between the paragraphs (inbody.go). The headline
//     printed again at the top goes, with a kicker or date above it
//     (title.go), and a heading that repeats a paragraph (duplicate.go).
//     When the content is still shorter than minChars and the page's
//     JSON-LD has a much longer articleBody that the page shows, that
//     text is the content (jsonld.go).
//     Make links and images absolute against the page URL or its <base
//     href>; drop links whose scheme is not http, https, mailto or ftp.
//  6. Put a drop cap set apart before the first paragraph back into its
//     word (dropcap.go). Convert to Markdown (github.com/JohannesKaufmann/html-to-markdown/v2,
//     commonmark and table plugins: headings, lists, fenced code, tables).
//  7. Clean: boundary.RemoveInvisible, 3+ line breaks become 2, trim.
//
// An application shell (scripts and an empty mount element, or a
// noscript asking for JavaScript) from which less than minChars were
// extracted is ErrScriptRendered (shell.go).
package extract

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/htmlparse"
)

// Result is the main content of one page.
type Result struct {
	// Title is the article's title (readability's, else <title>), plain
	// text with white space collapsed.
	Title string
	// Markdown is the main content.
	Markdown string
	// Partial reports that the document was cut to the parser bounds or
	// that extraction fell back from readability: the caller notices
	// extraction_partial.
	Partial bool
	// Removed counts the invisible and control characters removed from
	// Markdown (the caller notices characters_removed).
	Removed int
}

// ErrNothing is returned when a document has no extractable text
// (unsupported_content, extraction_failed).
var ErrNothing = errors.New("extract: nothing extractable")

// maxDepth bounds the depth of the parsed tree.
const maxDepth = 512

// Fallback thresholds: readability's text is accepted unless it has fewer
// than minChars characters AND less than minShare of the page's visible text.
const (
	minChars = 200
	minShare = 0.25
)

// HTML extracts from a decoded document; base is the page URL (links and
// images are made absolute against it or a <base href>). base may be nil.
// It returns ctx's error when ctx ends while the document is parsed.
func HTML(ctx context.Context, doc string, base *url.URL) (Result, error) {
	if !utf8.ValidString(doc) {
		doc = strings.ToValidUTF8(doc, "\uFFFD")
	}
	var res Result
	root, cut, err := parse(ctx, doc)
	if err != nil {
		return Result{}, err
	}
	res.Partial = cut
	pageURL := effectiveBase(root, base)
	title := collapse(textOf(docTitle(root)))
	ld := ldArticleBody(root)
	body := find(root, atom.Body)
	if body == nil {
		body = root
	}
	shell := appShell(body)
	removeHidden(root)
	flattenNestedHeadings(body)
	shortenWrapperChains(body)

	pageText := visibleLen(body)
	ld = shownLD(ld, body)
	if pageText == 0 {
		if !useLD(ld, 0) {
			return Result{}, nothing(shell)
		}
		res.Partial = true
		return finish(res, ldContent(ld), pageURL, title)
	}
	removeBoilerplate(body, pageText, true)

	p := readability.NewParser()
	p.KeepClasses = true
	art, rerr := p.ParseAndMutate(root, readabilityURL(pageURL))
	content := art.Node
	if rerr == nil {
		if t := collapse(art.Title()); t != "" {
			title = t
		}
	}
	n := 0
	if content != nil {
		n = visibleLen(content)
	}
	// readability works on copies and only prepares root (comments, <br>
	// runs, <font>): the fallback is taken from root after it, and cloned
	// only when it is used.
	var before []*html.Node
	if rerr != nil || content == nil || (n < minChars && float64(n) < minShare*float64(pageText)) {
		if fallback := chooseFallback(root); fallback != nil && visibleLen(fallback) > n {
			content = fallback
			res.Partial = true
		}
	} else {
		dense, prose := densestContainer(body)
		if alt := alternative(dense, prose, content); alt != nil {
			content = stripFurniture(clone(alt))
		} else {
			before = recoverBefore(dense, content)
		}
		recoverLead(root, content)
	}
	if content == nil {
		if !useLD(ld, 0) {
			return Result{}, nothing(shell)
		}
		content = ldContent(ld)
		res.Partial = true
	}
	removeBoilerplate(content, visibleLen(content), false)
	pruneContent(content)
	pruneInside(content)
	pruneCredits(content)
	pruneImageCaptions(content)
	pruneEmbedLines(content)
	pruneFurniture(content)
	pruneTeaserRuns(content)
	tailCut := cutAtRelatedHeading(content)
	tailCut = cutAtContact(content) || tailCut
	// what stood above a cut list of other pages may be its furniture
	// too: trimTail goes on from there as after navigation
	trimTail(content, tailCut)
	trimHead(content)
	for i := len(before) - 1; i >= 0; i-- {
		content.InsertBefore(before[i], content.FirstChild)
	}
	if dropTitleHeading(content, title) {
		// what stood under the headline (a dateline, a byline) now
		// opens the content
		trimHead(content)
	}
	dropDuplicateHeadings(content)
	if ld != "" && useLD(ld, visibleLen(content)) {
		content = ldContent(ld)
		res.Partial = true
	} else if scriptRendered(shell, content) {
		return Result{}, ErrScriptRendered
	}
	return finish(res, content, pageURL, title)
}

// finish puts drop caps back into their words, makes content's links
// absolute and converts it to Markdown.
func finish(res Result, content *html.Node, pageURL *url.URL, title string) (Result, error) {
	joinDropCaps(content)
	absolutize(content, pageURL)

	md, err := toMarkdown(content)
	if err != nil {
		return Result{}, ErrNothing
	}
	res.Markdown, res.Removed = clean(md)
	title, _ = boundary.RemoveInvisible(title)
	res.Title = collapse(title) // again: a removed character may have stood between spaces
	if strings.TrimSpace(res.Markdown) == "" {
		return Result{}, ErrNothing
	}
	return res, nil
}

// nothing is the error for a page with no extractable text:
// ErrScriptRendered for an application shell, else ErrNothing.
func nothing(shell bool) error {
	if shell {
		return ErrScriptRendered
	}
	return ErrNothing
}

// readabilityURL gives readability a non-nil URL (it resolves links with it).
func readabilityURL(u *url.URL) *url.URL {
	if u == nil {
		return &url.URL{}
	}
	return u
}

// effectiveBase is the page URL resolved with the first <base href>, as in
// a browser; base itself when there is none or it does not parse.
func effectiveBase(root *html.Node, base *url.URL) *url.URL {
	b := find(root, atom.Base)
	for b != nil {
		// the first <base> with an href counts
		if href, ok := attr(b, "href"); ok {
			h, err := url.Parse(strings.TrimSpace(href))
			if err != nil {
				return base
			}
			if base != nil {
				return base.ResolveReference(h)
			}
			if h.IsAbs() {
				return h
			}
			return base
		}
		b = nextElement(b, atom.Base)
	}
	return base
}

// TreeBudget bounds the tree of one page, in htmlparse's count: nodes at
// htmlparse.NodeBytes, attributes at htmlparse.AttrBytes, plus the bytes
// of their text, names and values. What a tree costs is not what its page
// weighs: 5 MiB of "<p>a</p>" is 1.3 million nodes, and formatting left
// open multiplies nodes (htmlparse's package doc). The parser stops at
// the budget and the page is extracted from what it built
// (Result.Partial). Extraction (readability's copies, the density pass,
// the Markdown) was measured to peak at 3 to 5 times the tree, whatever
// the page's shape; the largest real page of the dev sets (a 1 MB
// Wikipedia article, 24,000 nodes) costs about half of the budget.
const TreeBudget = 8 << 20

// parse builds doc's tree within TreeBudget; cut reports that the tree
// was cut (budget, or nesting). x/net/html's parser refuses nesting
// deeper than 512: the tags below flattenDepth are dropped and the
// document parsed again. An unparsable document is ErrNothing; a parse
// that ctx ended returns ctx's error.
func parse(ctx context.Context, doc string) (root *html.Node, cut bool, err error) {
	root, cut, err = htmlparse.Parse(ctx, strings.NewReader(doc), TreeBudget)
	if err != nil && ctx.Err() == nil {
		root, _, err = htmlparse.Parse(ctx, strings.NewReader(flatten(doc)), TreeBudget)
		cut = true
	}
	switch {
	case ctx.Err() != nil:
		return nil, false, ctx.Err()
	case err != nil:
		return nil, false, ErrNothing
	}
	if bound(root) {
		cut = true
	}
	return root, cut, nil
}

// bound cuts the subtrees deeper than maxDepth (the adoption agency can
// nest a little deeper than the parser's open elements); true when it cut
// anything. Iterative, so that a nesting bomb costs no stack.
func bound(root *html.Node) bool {
	cut := false
	depth := 0
	n := root
	for n != nil {
		if n.FirstChild != nil && depth >= maxDepth {
			for n.FirstChild != nil {
				n.RemoveChild(n.FirstChild)
			}
			cut = true
		}
		if n.FirstChild != nil {
			n = n.FirstChild
			depth++
			continue
		}
		for n != nil && n != root && n.NextSibling == nil {
			n = n.Parent
			depth--
		}
		if n == nil || n == root {
			break
		}
		n = n.NextSibling
	}
	return cut
}

// flattenDepth is the tag depth below which flatten drops tags; the parser
// adds implied elements, so it stays well under the parser's 512.
const flattenDepth = 256

// flatten rewrites doc without the start and end tags nested deeper than
// flattenDepth, keeping their text.
func flatten(doc string) string {
	var b strings.Builder
	b.Grow(len(doc))
	z := html.NewTokenizer(strings.NewReader(doc))
	depth, skipped := 0, 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.StartTagToken:
			name, _ := z.TagName()
			if void[atom.Lookup(name)] {
				break
			}
			if depth >= flattenDepth {
				skipped++
				continue
			}
			depth++
		case html.EndTagToken:
			if skipped > 0 {
				skipped--
				continue
			}
			if depth > 0 {
				depth--
			}
		}
		b.Write(z.Raw())
	}
}

var void = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true,
	atom.Source: true, atom.Track: true, atom.Wbr: true,
}

// dropped are elements whose content is never rendered as page text.
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true,
	atom.Iframe: true, atom.Frame: true, atom.Frameset: true, atom.Object: true,
	atom.Embed: true, atom.Canvas: true, atom.Link: true, atom.Meta: true,
}

// chooseFallback picks the fallback container: the page's only <article>,
// else its only <main> (or role=main), else <body>, stripped of navigation,
// headers, footers and asides.
func chooseFallback(root *html.Node) *html.Node {
	var articles, mains []*html.Node
	var body *html.Node
	walkElements(root, func(n *html.Node) {
		switch {
		case n.DataAtom == atom.Article:
			articles = append(articles, n)
		case n.DataAtom == atom.Main || attrIs(n, "role", "main"):
			mains = append(mains, n)
		case n.DataAtom == atom.Body && body == nil:
			body = n
		}
	})
	var pick *html.Node
	switch {
	case len(articles) == 1 && visibleLen(articles[0]) > 0:
		pick = articles[0]
	case len(mains) == 1 && visibleLen(mains[0]) > 0:
		pick = mains[0]
	default:
		pick = body
	}
	if pick == nil {
		return nil
	}
	return stripFurniture(clone(pick))
}

// stripFurniture removes navigation, headers, footers and asides from c, a
// copy, and makes a <body> a <div>.
func stripFurniture(c *html.Node) *html.Node {
	var strip func(n *html.Node)
	strip = func(n *html.Node) {
		for ch := n.FirstChild; ch != nil; {
			next := ch.NextSibling
			if ch.Type == html.ElementNode && (ch.DataAtom == atom.Nav || ch.DataAtom == atom.Aside ||
				ch.DataAtom == atom.Footer || ch.DataAtom == atom.Header && ch.Parent.DataAtom == atom.Body ||
				attrIs(ch, "role", "navigation") || attrIs(ch, "role", "banner") || attrIs(ch, "role", "contentinfo")) {
				n.RemoveChild(ch)
			} else {
				strip(ch)
			}
			ch = next
		}
	}
	strip(c)
	if c.DataAtom == atom.Body {
		c.DataAtom, c.Data = atom.Div, "div"
	}
	return c
}

// absolutize resolves href and src against base and drops link targets a
// reader cannot follow (javascript:, data:, …).
func absolutize(root *html.Node, base *url.URL) {
	walkElements(root, func(n *html.Node) {
		for i := range n.Attr {
			a := &n.Attr[i]
			if a.Key != "href" && a.Key != "src" {
				continue
			}
			u, err := url.Parse(strings.TrimSpace(a.Val))
			if err == nil && base != nil {
				u = base.ResolveReference(u)
			}
			if err != nil || !followable(u) {
				a.Val = ""
				continue
			}
			a.Val = u.String()
		}
	})
}

func followable(u *url.URL) bool {
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto", "ftp":
		return true
	case "":
		// a relative reference with no base to resolve it against
		return u.Opaque == "" && (u.Path != "" || u.Fragment != "" || u.Host != "")
	}
	return false
}

// toMarkdown converts a subtree.
func toMarkdown(n *html.Node) (string, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	b, err := conv.ConvertNode(n)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

var rxBlankLines = lazyRegexp(`\n[ \t]*\n(?:[ \t]*\n)+`)

// clean removes invisible characters (counting them), collapses runs of
// blank lines and trims.
func clean(md string) (string, int) {
	md = strings.ReplaceAll(md, "\r\n", "\n")
	md, removed := boundary.RemoveInvisible(md)
	md = rxBlankLines().ReplaceAllString(md, "\n\n")
	return strings.TrimSpace(md), removed
}

// --- small DOM helpers ---

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
}

func attrIs(n *html.Node, key, val string) bool {
	v, ok := attr(n, key)
	return ok && strings.EqualFold(strings.TrimSpace(v), val)
}

// walkElements calls fn on every element under root, in document order.
func walkElements(root *html.Node, fn func(*html.Node)) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				fn(c)
			}
			walk(c)
		}
	}
	walk(root)
}

// find returns the first element with tag a under root.
func find(root *html.Node, a atom.Atom) *html.Node {
	var found *html.Node
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == a {
				found = c
				return true
			}
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(root)
	return found
}

// nextElement returns the next element with tag a after n in document
// order, outside n's subtree.
func nextElement(n *html.Node, a atom.Atom) *html.Node {
	for m := n; m != nil; m = m.Parent {
		for s := m.NextSibling; s != nil; s = s.NextSibling {
			if s.Type == html.ElementNode && s.DataAtom == a {
				return s
			}
			if f := find(s, a); f != nil {
				return f
			}
		}
	}
	return nil
}

func clone(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace,
		Attr: append([]html.Attribute(nil), n.Attr...)}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.AppendChild(clone(ch))
	}
	return c
}

// textOf is the concatenated text under n.
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// visibleLen counts the non-space characters of the text under n.
func visibleLen(n *html.Node) int {
	count := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			for _, r := range n.Data {
				if r != ' ' && r != '\n' && r != '\t' && r != '\r' && r != '\f' && r != 0xA0 {
					count++
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return count
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
