package extract

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ErrScriptRendered is returned when the page is an application shell
// whose content scripts would render, and nothing readable was extracted
// without them: rypsok runs no script (the design's rule for every page
// it reads). It wraps ErrNothing, so a caller that only knows ErrNothing
// still answers unsupported_content, extraction_failed; one that knows it
// can say why.
var ErrScriptRendered = fmt.Errorf("%w: the page is rendered by scripts", ErrNothing)

// Application shells. A page built by a script framework ships a body
// with an empty mount element (<div id="root"></div>, <app-root>) and its
// script bundles, often with a <noscript> asking to enable JavaScript.
// Without scripts, what a reader could extract from it is that request,
// a "Loading…" line, or nothing. The signs are read before the hidden
// content (scripts, noscript) is removed; the decision is taken on what
// extraction found.

// rxNeedsScript matches a message that asks for JavaScript, in the
// languages of the dev sets.
var rxNeedsScript = lazyRegexp(`(?i)javascript|\bjs\b.{0,20}\b(?:enable|aktivier|activ)`)

// mountIDs are the ids of the elements script frameworks render into.
var mountIDs = map[string]bool{
	"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true,
	"svelte": true, "app-root": true, "main-app": true, "application": true,
}

// appShell reports whether body looks like an application shell: it
// loads scripts, and it has a mount element (by its id, or a custom
// element holding nothing but scripts) or a <noscript> that asks for
// JavaScript. Whether the server rendered the content into it anyway is
// for scriptRendered to say. Call it before removeHidden.
func appShell(body *html.Node) bool {
	scripts, mount, ask := 0, false, false
	walkElements(body, func(n *html.Node) {
		switch {
		case n.DataAtom == atom.Script:
			scripts++
		case n.DataAtom == atom.Noscript:
			// the parser keeps a noscript's content as text
			ask = ask || rxNeedsScript().MatchString(textOf(n))
		default:
			id, _ := attr(n, "id")
			custom := n.DataAtom == 0 && strings.Contains(n.Data, "-") && onlyScripts(n)
			mount = mount || custom || mountIDs[strings.ToLower(strings.TrimSpace(id))]
		}
	})
	return scripts > 0 && (mount || ask)
}

// scriptRendered reports whether what was extracted from an application
// shell is nothing readable: less than minChars of text (a "Loading…"
// line, a request to enable JavaScript).
func scriptRendered(shell bool, content *html.Node) bool {
	if !shell {
		return false
	}
	if content == nil {
		return true
	}
	return visibleLen(content) < minChars
}

// onlyScripts reports whether n's children are all scripts or white space.
func onlyScripts(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom != atom.Script || c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return false
		}
	}
	return true
}
