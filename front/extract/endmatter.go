package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// End matter and bylines. What closes a story is often not the story: the
// author's biography, "Reporting by … ; Editing by …", copyright and
// reprint notices, a disclaimer, a comment policy. What opens it is often
// the byline and the page's own address printed as text. People who
// annotate articles leave them all out. trimTail and trimHead (prune.go)
// take them off the content's ends, recognised by structure (a short
// block, named for its author, or worded as end matter) rather than by
// one site's names.

// maxEndMatterChars bounds a block removed as end matter: a biography is
// a few sentences; past it, the block is more likely the article's last
// paragraphs.
const maxEndMatterChars = 600

// authorParts are the class and id words of an author's box or byline
// (whole parts of a token split at -, _ and case changes: "author-bio",
// "authorBox", "byline").
var authorParts = map[string]bool{
	"author": true, "authors": true, "autor": true, "auteur": true, "autore": true,
	"bio": true, "bios": true, "biography": true, "byline": true, "authorbox": true,
}

// rxEndMatter matches the wording of end matter, in the languages of the
// dev sets: agency credits for reporting and editing, copyright and
// reprint notices, disclaimers of the author's opinion, comment policies,
// "originally published" notes.
var rxEndMatter = lazyRegexp(`(?i)^\W*(?:(?:additional )?reporting by|editing by|writing by|compiled by|(?:this (?:article|story|post) )?(?:was )?(?:originally|first) (?:published|appeared)|copyright\b|©|\(c\) \d{4})|all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|tutti i diritti riservati|wszelkie prawa zastrzeżone|nachdruck (?:nur|verboten)|reprint(?:s| permission)|gibt die meinung des autors wieder|do(?:es)? not necessarily (?:reflect|represent)|not responsible for the (?:opinions|content)|comment(?:ing)? (?:policy|guidelines)|kommentarrichtlinien|netiquette`)

// isEndMatter reports whether n is a short block named for its author or
// worded as end matter.
func isEndMatter(n *html.Node) bool {
	l := visibleLen(n)
	if l == 0 || l > maxEndMatterChars {
		return false
	}
	if nameHas(n, authorParts) {
		return true
	}
	return rxEndMatter().MatchString(collapse(textPrefix(n, 200)))
}

// isAuthorLine reports whether n is a byline (density.go's isByline) or a
// short block named for its author.
func isAuthorLine(n *html.Node) bool {
	return isByline(n) || visibleLen(n) <= maxBylineChars && nameHas(n, authorParts)
}

// isURLLine reports whether n's whole text is a web address: the page's
// own URL printed above or below the story.
func isURLLine(n *html.Node) bool {
	t := collapse(textOf(n))
	if t == "" || strings.ContainsRune(t, ' ') {
		return false
	}
	l := strings.ToLower(t)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.")
}
