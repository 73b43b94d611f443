package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Social embeds. A story that quotes a post keeps the post's words, but
// the lines the embed adds around them are the platform's: the account
// and date line under a tweet ("— Jane Doe (@jdoe) March 5, 2021"), "A
// post shared by …" and "View this post on Instagram". People who mark an
// article's text leave them out.

// rxEmbedFooter matches the account line an embedded post ends with: a
// dash, a name, the @handle in parentheses and a date; or Instagram's
// "A post shared by …".
var rxEmbedFooter = lazyRegexp(`(?i)^\W*(?:[—–-]\s*[^()]{0,60}\(@\w{1,30}\)\s*.{0,40}\d{4}|a (?:post|photo|video) shared by\b[^()]{0,80}\(@\w{1,30}\).{0,60})\W*$`)

// rxEmbedLabel matches the labels an embedded post shows around it.
var rxEmbedLabel = lazyRegexp(`(?i)^\W*(?:view this (?:post|profile) on (?:instagram|facebook|tiktok|threads)|view (?:on|in) (?:instagram|twitter|x|facebook|tiktok)|see (?:this|the) (?:post|tweet) on (?:instagram|twitter|x)|(?:a )?(?:beitrag|post) geteilt von\b.{0,120}|ver esta publicaci[oó]n en instagram|voir cette publication sur instagram)\W*$`)

// maxEmbedLineChars bounds an embed's account line or label.
const maxEmbedLineChars = 200

// pruneEmbedLines removes the account lines and labels of embedded posts:
// in a blockquote, the text after its last paragraph that reads as an
// account line, and anywhere, a block that is only such a line or label.
func pruneEmbedLines(root *html.Node) {
	walkElements(root, func(n *html.Node) {
		if tag(n) == atom.Blockquote {
			trimEmbedFooter(n)
		}
	})
	removeIf(root, func(n *html.Node) bool {
		switch tag(n) {
		case atom.P, atom.Div, atom.Span, atom.A, atom.Blockquote:
		default:
			return false
		}
		l, ok := visibleAtMost(n, maxEmbedLineChars)
		if !ok || l == 0 || inlineInText(n) {
			return false
		}
		t := collapse(textOf(n))
		return rxEmbedLabel().MatchString(t) || rxEmbedFooter().MatchString(t) && tag(n) != atom.Blockquote
	})
}

// trimEmbedFooter removes, from the blockquote q, what follows its last
// <p> when it is an account line.
func trimEmbedFooter(q *html.Node) {
	var last *html.Node
	for c := q.FirstChild; c != nil; c = c.NextSibling {
		if tag(c) == atom.P {
			last = c
		}
	}
	if last == nil || last.NextSibling == nil {
		return
	}
	// the footer is a line: its text is read no further than that, so
	// that a deep document does not cost its size once per blockquote
	var b strings.Builder
	for c := last.NextSibling; c != nil && b.Len() <= 4*maxEmbedLineChars; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data[:min(len(c.Data), 4*maxEmbedLineChars)])
		} else {
			b.WriteString(textPrefix(c, 4*maxEmbedLineChars))
		}
		b.WriteByte(' ')
	}
	t := collapse(b.String())
	if t == "" || utf8.RuneCountInString(t) > maxEmbedLineChars || !rxEmbedFooter().MatchString(t) {
		return
	}
	for c := last.NextSibling; c != nil; {
		next := c.NextSibling
		q.RemoveChild(c)
		c = next
	}
}
