package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// End matter and bylines. What closes a story is often not the story: the
// author's biography ("Jane Doe is a reporter for …"), "Reporting by … ;
// Editing by …", "NAME contributed to this report", the print edition's
// note, copyright and reprint notices, a disclaimer, a comment policy, a
// press contact, the date set under the text. What opens it is often
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
var rxEndMatter = lazyRegexp(`(?i)^\W*(?:(?:additional )?reporting by|editing by|writing by|compiled by|(?:this (?:article|story|post) )?(?:was )?(?:originally|first) (?:published|appeared)|copyright\s*(?:©|\(c\)|\d{4}|by\b|\W*$)|©|\(c\) \d{4})|all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|tutti i diritti riservati|wszelkie prawa zastrzeżone|nachdruck (?:nur|verboten)|reprint(?:s| permission)|gibt die meinung des autors wieder|do(?:es)? not necessarily (?:reflect|represent)|not responsible for the (?:opinions|content)|comment(?:ing)? (?:policy|guidelines)|kommentarrichtlinien|netiquette|^\W*a version of this (?:article|story) (?:appears|appeared)|^\W*(?:have|got) an? (?:\w+ ){0,2}(?:tip|story idea)s?\b|read the original (?:article|story|post) (?:on|at)\b|\bis on (?:twitter|x|instagram|facebook|bluesky|mastodon|threads) (?:at\b|@)|^\W*(?:this (?:version|story|article) (?:corrects|has been (?:corrected|updated))|correction\s*:|an earlier version of this (?:article|story))|^\W*this (?:article|story|post|piece) was (?:reprinted|republished|syndicated) (?:on|from|by|with)\b|^\W*(?:posted|written|published|geschrieben|veröffentlicht|publicado|publié|opublikowane) (?:by|von|por|par|przez)\s+(?-i:\p{Lu})[^.!?$€£]{0,60}\W*$|^\s*[—–]{1,2}\s*(?-i:\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,3})(?:\s*,\s*[\p{L}\d .'’&-]{1,40})?\s*$|^\W*send (?:us )?(?:your )?(?:news )?tips\b|^\W*contact (?:the )?(?:author|reporter|writer)\b|may not be (?:published|reproduced), broadcast|\btrust principles\b|^[^.]{0,80}\bcontributed(?: reporting| research| to this (?:report|article|story))\W*$|^(?-i:\p{Lu}[\p{L}.'’-]+(?:\s+\p{Lu}[\p{L}.'’-]+){1,3})(?:,?\s+(?:and\s+)?(?-i:\p{Lu}[\p{L}.'’-]+(?:\s+\p{Lu}[\p{L}.'’-]+){1,3}))*\s+contributed\W*$`)

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
	prefix := collapse(textPrefix(n, 200))
	return rxEndMatter().MatchString(prefix) || rxBio().MatchString(prefix) && (rxBioPress().MatchString(prefix) || emphasized(n))
}

// rxBio matches the opening of an author's biography: a name of two to
// four capitalised words, then "is a reporter …", "is the founder of …",
// "ist Redakteurin …", "es periodista …" (after the name: the role,
// within a few words).
var rxBio = lazyRegexp(`^\W*\p{Lu}[\p{L}.'’-]+(?:\s+\p{Lu}[\p{L}.'’-]+){1,3},?\s+(?i:(?:has covered|covers|writes about|reports on|schreibt über)\b|(?:is|has been|ist|es|est)\s+(?:a|an|the|ein|eine|der|die|un|una|el|la|le|l')?\s*(?:[\p{L}-]+\s+){0,4}?(?:writer|reporter|editor|correspondent|journalist|columnist|contributor|producer|author|freelancer?|founder|co-founder|ceo|director|professor|fellow|analyst|researcher|consultant|economist|redakteur(?:in)?|autor(?:in)?|journalist(?:in)?|korrespondent(?:in)?|gründer(?:in)?|professor(?:in)?|wissenschaftler(?:in)?|periodista|corresponsal|redactor(?:a)?|investigador(?:a)?|profesor(?:a)?|politólog[oa]|analista|escritor(?:a)?|economista|journaliste|rédact(?:eur|rice)|correspondant(?:e)?|fondat(?:eur|rice)|chercheu(?:r|se)|professeur|écrivain)\b)`)

// isAuthorLine reports whether n is a byline (density.go's isByline) or a
// short block named for its author.
func isAuthorLine(n *html.Node) bool {
	if isByline(n) {
		return true
	}
	l := visibleLen(n)
	if l > maxBylineChars {
		return false
	}
	if nameHas(n, authorParts) {
		return true
	}
	// a wrapper around the author-named element, with little beside it
	// ("Article by" over the name)
	named := 0
	walkElements(n, func(e *html.Node) {
		if named == 0 && nameHas(e, authorParts) {
			named = visibleLen(e)
		}
	})
	return named > 0 && float64(named) >= minAuthorShare*float64(l)
}

// minAuthorShare is the share of a short block's text that an
// author-named element inside it must hold for the block to be a byline.
const minAuthorShare = 0.6

// isURLLine reports whether n's whole text is a web address: the page's
// own URL printed above or below the story.
func isURLLine(n *html.Node) bool {
	t := collapse(textOf(n))
	if t == "" || strings.ContainsRune(t, ' ') {
		return false
	}
	l := strings.ToLower(t)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.") ||
		rxEmailOnly().MatchString(l)
}

// rxEmailOnly matches a text that is one e-mail address.
var rxEmailOnly = lazyRegexp(`^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$`)

// maxRelatedHeadingChars bounds a heading that announces other pages.
const maxRelatedHeadingChars = 60

// rxRelatedHeading matches a heading that announces other pages rather
// than a section of the article, in the languages of the dev sets.
var rxRelatedHeading = lazyRegexp(`(?i)^\W*(?:related topics$|more on this story$|(?:das |dies )?könnte (?:sie|dich) (?:auch )?interessieren|you (?:may|might) (?:also )?(?:like|enjoy|be interested(?: in)?)(?: (?:these|this|the following|reading))?\W*$|(?:more|other) (?:stories|articles|posts|news) (?:from|like|on|about)|related (?:stories|articles|posts|content|coverage|news|reading)|recommended (?:for you|stories|articles|reading)|entdecke weitere|weitere (?:artikel|beiträge|meldungen|nachrichten|themen)|ähnliche (?:artikel|beiträge)|mehr zum thema|te puede interesar|también te (?:puede|podría) interesar|noticias relacionadas|artículos relacionados|à lire (?:aussi|également)|articles liés|sur le même sujet|dans la même rubrique|leggi anche|articoli correlati|czytaj (?:też|także)|zobacz (?:też|także)|polecane)\b`)

// cutAtRelatedHeading removes, from the last maxTailShare of the
// content, a heading that announces other pages ("You might also like",
// "Das könnte Sie auch interessieren", or "Most Read" over links or
// headings) and everything after it: the teasers under such a heading
// are cards with summaries, running text that trimTail alone keeps.
func cutAtRelatedHeading(content *html.Node) bool {
	if cutAtTailHeading(content, rxRelatedHeading().MatchString, nil) {
		return true
	}
	return cutAtTailHeading(content, rxBareRelatedHeading().MatchString, func(after []*html.Node) bool {
		for _, n := range after {
			if hasLink(n) || isHeading(n) || find(n, atom.H2) != nil || find(n, atom.H3) != nil || find(n, atom.H4) != nil {
				return true
			}
		}
		return false
	})
}

// rxBareRelatedHeading matches a heading that announces other pages in
// words a story also uses ("Up next", "Most popular", "More from …"):
// cutAtRelatedHeading cuts at it only when links or headings follow.
var rxBareRelatedHeading = lazyRegexp(`(?i)^\W*(?:more from\b[^.:!?]{0,40}$|most (?:read|popular|viewed|shared|recent)(?: (?:stories|articles|news|posts|videos))?$|trending(?: now| stories| articles)?$|latest (?:news|stories|articles|posts)$|editors?'?s?’?s? picks?$|top stories$|(?:what to )?read next$|up next$)`)

// rxContactHeading matches the heading of a press contact ("Kontakt:",
// "Media contact", "Ansprechpartnerin zum Thema"), in the languages of
// the dev sets.
var rxContactHeading = lazyRegexp(`(?i)^\W*(?:kontakt|pressekontakt|medienkontakt|ansprechpartner(?:in|innen)?(?: zum thema| für die presse)?|für rückfragen|rückfragen|(?:media|press) (?:contacts?|enquiries|inquiries)|contacts?|contacto(?: de prensa)?|contact presse|kontakt dla mediów)\W*$`)

// rxContactDetail matches a telephone number or an e-mail address.
var rxContactDetail = lazyRegexp(`(?i)\b(?:tel(?:efon|ephone|éfono)?|phone|fon|fax|e-?mail)\b\.?\s*:?\s*[+(\d]|[\w.+-]+@[\w-]+\.[\w.]+`)

// cutAtContact removes, from the last maxTailShare of the content, a
// press contact: its heading and what follows, when that gives a
// telephone number or an e-mail address. People who mark a press
// release's text leave the contact out.
func cutAtContact(content *html.Node) bool {
	return cutAtTailHeading(content, rxContactHeading().MatchString, func(after []*html.Node) bool {
		for _, n := range after {
			if find(n, atom.A) != nil && hasMailto(n) || rxContactDetail().MatchString(textOf(n)) {
				return true
			}
		}
		return false
	})
}

// hasMailto reports whether n holds a mailto: link.
func hasMailto(n *html.Node) bool {
	found := false
	walkElements(n, func(e *html.Node) {
		if h, ok := attr(e, "href"); ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(h)), "mailto:") {
			found = true
		}
	})
	return found
}

// cutAtTailHeading removes the first heading (or heading-like line) whose
// text matches, with everything after it, when all that is within the
// content's last maxTailShare and, if accept is set, accept approves what
// follows the heading. It reports whether it removed them.
func cutAtTailHeading(content *html.Node, match func(string) bool, accept func(after []*html.Node) bool) bool {
	var h *html.Node
	walkElements(content, func(n *html.Node) {
		if h == nil && (isHeading(n) || tag(n) == atom.P || tag(n) == atom.Div && n.FirstChild != nil && n.FirstChild == n.LastChild && n.FirstChild.Type == html.TextNode) &&
			shortText(n, maxRelatedHeadingChars) && match(collapse(textOf(n))) {
			h = n
		}
	})
	if h == nil {
		return false
	}
	var drop []*html.Node
	removed := 0
	for n := h; n != nil && n != content; n = n.Parent {
		for s := n.NextSibling; s != nil; s = s.NextSibling {
			drop = append(drop, s)
			removed += visibleLen(s)
		}
	}
	if accept != nil && !accept(drop) {
		return false
	}
	drop = append(drop, h)
	removed += visibleLen(h)
	if float64(removed) > maxTailShare*float64(visibleLen(content)) {
		return false
	}
	for _, d := range drop {
		d.Parent.RemoveChild(d)
	}
	return true
}

// shortText reports whether n has at most max visible characters,
// counting no further than that.
func shortText(n *html.Node, max int) bool {
	_, ok := visibleAtMost(n, max)
	return ok
}

// rxBioPress matches the press roles of a biography. Other roles ("is the
// CEO of …", "is the largest producer") are a story's sentences unless
// the block is set apart in emphasis, as biographies are.
var rxBioPress = lazyRegexp(`(?i)\b(?:writer|reporter|editor|correspondent|journalist|columnist|contributor|author|freelancer?|redakteur(?:in)?|autor(?:in)?|journalist(?:in)?|korrespondent(?:in)?|periodista|corresponsal|redactor(?:a)?|escritor(?:a)?|journaliste|rédact(?:eur|rice)|correspondant(?:e)?|écrivain)\b|\b(?:has covered|covers|writes about|reports on|schreibt über)\b`)

// emphasized reports whether all of n's text is in <em>, <i>, <b>,
// <strong> or <small>.
func emphasized(n *html.Node) bool {
	in := 0
	walkElements(n, func(e *html.Node) {
		switch tag(e) {
		case atom.Em, atom.I, atom.B, atom.Strong, atom.Small:
			if p := e.Parent; p == n || tag(p) == atom.P || tag(p) == atom.Div {
				in += visibleLen(e)
			}
		}
	})
	return in > 0 && in >= visibleLen(n)
}
