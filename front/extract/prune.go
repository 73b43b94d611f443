package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Pruning of readability's result, which keeps its classes and ids
// (Parser.KeepClasses): readability decides where the article is, and
// these passes remove what sits inside it but is not article text.

// nameHas reports whether a class or id token of n, split at - and _ and
// lowercased, has a part in parts. camelCase is split too
// (imageCaption → image, caption).
func nameHas(n *html.Node, parts map[string]bool) bool {
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			continue
		}
		for _, tok := range strings.Fields(a.Val) {
			ps := nameParts(tok)
			for i, p := range ps {
				// "no-caption", "without-credits" negate the name
				if parts[p] && (i == 0 || ps[i-1] != "no" && ps[i-1] != "without") {
					return true
				}
			}
		}
	}
	return false
}

// nameParts splits a class or id token into lowercased words at -, _, :
// and lower-to-upper case changes.
func nameParts(tok string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c == '-' || c == '_' || c == ':' || c == '.':
			if i > start {
				parts = append(parts, strings.ToLower(tok[start:i]))
			}
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start && tok[i-1] >= 'a' && tok[i-1] <= 'z':
			parts = append(parts, strings.ToLower(tok[start:i]))
			start = i
		}
	}
	if start < len(tok) {
		parts = append(parts, strings.ToLower(tok[start:]))
	}
	return parts
}

// removeIf removes every element under root for which drop is true,
// without descending into removed subtrees.
func removeIf(root *html.Node, drop func(*html.Node) bool) {
	for c := root.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			if drop(c) {
				root.RemoveChild(c)
			} else {
				removeIf(c, drop)
			}
		}
		c = next
	}
}

// Edge trimming. Readability takes the article's container whole, and a
// container often ends with what follows the story: "More on this topic"
// headings, lists of links to other articles, a lone "Read more" link.
// trimTail removes, from the end of the content backwards, blocks that are
// mostly link text and headings that no longer head anything, and stops at
// the first block of running text.

// maxTailLinkDensity is the share of a block's text inside links above
// which a trailing block is taken for navigation.
const maxTailLinkDensity = 0.5

// maxTailHeadingWords bounds a trailing heading that heads nothing: "More
// on this topic" is short; a pull quote set as a heading is a sentence.
const maxTailHeadingWords = 6

// maxTailShare is the most of the content's text that trimTail removes;
// past it, the "navigation" is more likely the article itself.
const maxTailShare = 0.4

// trimTail removes trailing navigation blocks from the content; afterNav
// tells that navigation was cut from its end already.
func trimTail(content *html.Node, afterNav bool) {
	var drop []*html.Node
	tailBlocks(content, &drop, afterNav)
	removed := 0
	for _, d := range drop {
		removed += visibleLen(d)
	}
	if removed == 0 || float64(removed) > maxTailShare*float64(visibleLen(content)) {
		return
	}
	for _, d := range drop {
		d.Parent.RemoveChild(d)
	}
}

// tailBlocks walks n's children from the last, appending to drop the
// trailing blocks that are navigation; afterNav tells that a block after
// them was navigation (a heading above it goes too, whatever its length).
// It reports whether the walk reached n's first child, all of it
// navigation or empty.
func tailBlocks(n *html.Node, drop *[]*html.Node, afterNav bool) bool {
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		switch {
		case c.Type == html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		case c.Type != html.ElementNode:
		case visibleLen(c) == 0:
			// images and empty wrappers: only text decides, but a
			// linked picture is a teaser like a linked title
			if hasLink(c) {
				*drop = append(*drop, c)
				afterNav = true
			}
		case !isHeading(c) && (isEndMatter(c) && !inBlockquote(c) || isURLLine(c) || isDateLine(c) && !isSentence(c) && !endsSentence(c)):
			*drop = append(*drop, c)
			afterNav = true
		case isHeading(c):
			if !afterNav && len(strings.Fields(textOf(c))) > maxTailHeadingWords {
				return false
			}
			*drop = append(*drop, c)
			afterNav = true
		case isList(c) || !isContainer(c):
			if linkDensity(c) <= maxTailLinkDensity && !isTailCallToAction(c) && !isLabel(c, afterNav) {
				return false
			}
			*drop = append(*drop, c)
			afterNav = true
		default:
			if !tailBlocks(c, drop, afterNav) {
				return false
			}
			afterNav = true
		}
	}
	return true
}

// maxCallToActionLen bounds a call-to-action block: a line or two.
const maxCallToActionLen = 300

// rxCallToAction matches the wording of the blocks that close many news
// pages: subscribe, sign up for the newsletter, follow us, get the app,
// support our journalism, and a trailing "Source: …" line, in the
// languages of the dev sets.
var rxCallToAction = lazyRegexp(`(?i)subscri(?:be|ption|ber)|newsletter|\bclick here\b|^\W*(?:click here to )?get the\b.{0,30}\bapp\b|sign(?:ing)? up (?:for|to|now|here|today|below|free)\b|\bsign up\W*$|\bfollow us\b|\bfollow (?:\S+ ){1,3}on (?:twitter|x|facebook|instagram|linkedin|threads|bluesky|mastodon)\b|download (?:the|our)\b.{0,30}\bapps?\b|\bsupport (?:us|our|independent)\b|become a (?:member|subscriber|patron)|\btelegram\b|\bwhatsapp\b|abonn|folgen sie uns|unterstützen sie|suscr[ií]b|suscripci[oó]n|únete|hazte miembro|s[ií]guenos|ap[óo]yanos|inscrivez|suivez-nous|soutenez|subskryp|zapraszamy do|obserwuj nas|iscriviti|seguici|assine|inscreva|^\W*(?:source|quelle|źródło|fuente|fonte)\s*:`)

// isCallToAction reports whether n is a short block that asks the reader
// to subscribe, follow or support rather than telling the story.
func isCallToAction(n *html.Node) bool {
	return visibleLen(n) <= maxCallToActionLen && rxCallToAction().MatchString(collapse(textOf(n)))
}

// maxLabelWords bounds a label line: "Anzeige:", "Contact", "Load more",
// an agency's initials.
const maxLabelWords = 3

// Character bounds on a label: any label, and one without a colon.
const (
	maxLabelChars      = 80
	maxShortLabelChars = 25
)

// isLabel reports whether n is a label rather than a sentence: a short
// line ending in a colon that announces what follows, or, when what
// follows was navigation, a few words ("Related links", "Advertisement").
func isLabel(n *html.Node, afterNav bool) bool {
	l := visibleLen(n)
	if l > maxLabelChars {
		return false
	}
	t := collapse(textOf(n))
	w := len(strings.Fields(t))
	if w <= maxTailHeadingWords && strings.HasSuffix(t, ":") {
		return true
	}
	// the character bound keeps a sentence in a script written without
	// spaces (one "word") from passing for a label; a label does not end
	// a sentence ("Stay safe." does)
	return afterNav && w <= maxLabelWords && l <= maxShortLabelChars && !strings.HasSuffix(t, ".") && !strings.HasSuffix(t, "!") && !strings.HasSuffix(t, "?")
}

// hasLink reports whether n is or holds a link.
func hasLink(n *html.Node) bool {
	return n.DataAtom == atom.A || find(n, atom.A) != nil
}

func isList(n *html.Node) bool {
	t := tag(n)
	return t == atom.Ul || t == atom.Ol || t == atom.Dl
}

func isHeading(n *html.Node) bool {
	switch tag(n) {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// isContainer reports whether n groups blocks, so that trimming looks
// inside it rather than judging it whole.
func isContainer(n *html.Node) bool {
	switch tag(n) {
	case atom.Div, atom.Section, atom.Article, atom.Main, atom.Aside, atom.Header, atom.Footer,
		atom.Ul, atom.Ol, atom.Dl, atom.Figure, atom.Blockquote, atom.Center, atom.Span:
		return true
	}
	return false
}

// linkDensity is the share of n's visible text that sits inside links.
func linkDensity(n *html.Node) float64 {
	total := visibleLen(n)
	if total == 0 {
		return 0
	}
	linked := 0
	walkElements(n, func(e *html.Node) {
		if e.DataAtom == atom.A {
			linked += visibleLen(e)
		}
	})
	if n.DataAtom == atom.A {
		linked = total
	}
	return float64(linked) / float64(total)
}

// trimHead removes, from the start of the content, what comes before the
// article's first text: breadcrumbs and category links, a dateline, a
// byline, and a kicker (a label of a few words) set above a dateline or
// a byline. Headings and a table of contents stop it: they open the text.
// (A short label alone stays: at the start it is as often a subheading
// set in bold.)
func trimHead(content *html.Node) {
	h := headWalk{}
	h.blocks(content)
	removed := 0
	for _, d := range h.drop {
		removed += visibleLen(d)
	}
	if removed == 0 || float64(removed) > maxTailShare*float64(visibleLen(content)) {
		return
	}
	for _, d := range h.drop {
		d.Parent.RemoveChild(d)
	}
}

// headWalk collects the leading blocks trimHead removes. kicker holds a
// short label that goes only if furniture follows it.
type headWalk struct {
	drop   []*html.Node
	kicker *html.Node
}

// take drops c, and the kicker above it.
func (h *headWalk) take(c *html.Node) {
	if h.kicker != nil {
		h.drop = append(h.drop, h.kicker)
		h.kicker = nil
	}
	h.drop = append(h.drop, c)
}

// blocks walks n's children from the first. It reports whether the walk
// went past n's last child.
func (h *headWalk) blocks(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		case c.Type != html.ElementNode:
		case visibleLen(c) == 0:
		case isHeading(c):
			return false
		case isList(c) && tableOfContents(c):
			// the article's own outline: Readability.js keeps it
			return false
		case isDataTable(c):
			// a table of facts (an infobox) opens the text as a heading does
			return false
		case isList(c) || !isContainer(c):
			if linkDensity(c) > maxTailLinkDensity || (isDateLine(c) || isAuthorLine(c)) && !endsSentence(c) || isURLLine(c) {
				h.take(c)
				continue
			}
			if h.kicker == nil && len(h.drop) == 0 && isKicker(c) {
				h.kicker = c
				continue
			}
			return false
		case isDateLine(c) || isAuthorLine(c):
			// a wrapper that is all dateline ("Posted on <time>") or
			// byline, judged whole: its words sit beside its elements
			h.take(c)
		default:
			if !h.blocks(c) {
				return false
			}
		}
	}
	return true
}

// maxKickerChars bounds a kicker: "Politik", "Semesterstart", "Editors' pick".
const maxKickerChars = 25

// isKicker reports whether n is a label of a few words without a
// sentence's end: a section name or a kicker over a headline.
func isKicker(n *html.Node) bool {
	if visibleLen(n) > maxKickerChars {
		return false
	}
	t := collapse(textOf(n))
	return len(strings.Fields(t)) <= maxLabelWords && !strings.ContainsAny(t, ".!?:")
}

// tableOfContents reports whether the list n links only to places in the
// page itself (href="#…"): a table of contents, not navigation away.
func tableOfContents(n *html.Node) bool {
	links, inPage := 0, 0
	walkElements(n, func(e *html.Node) {
		if e.DataAtom == atom.A {
			links++
			if h, _ := attr(e, "href"); strings.HasPrefix(strings.TrimSpace(h), "#") {
				inPage++
			}
		}
	})
	return links > 0 && inPage == links
}

// maxDateLineChars bounds a dateline: "Updated March 5, 2021, 10:02 am".
const maxDateLineChars = 60

// rxDate matches a date: 5.3.2021, 2021-03-05, 03/05/2021, or a day or
// month name next to a year.
var rxDate = lazyRegexp(`\b\d{1,2}[./-]\s?\d{1,2}[./-]\s?\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|(?i)\b(?:jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz]|ene|abr|ago|dic|janv|févr|avr|juil|août|déc|sty|lut|kwi|cze|lip|sie|wrz|paź|lis|gru)[a-zéûñ]*\.?\s+(?:\d{1,2},?\s+)?\d{4}\b|\b\d{1,2}\.?\s+(?:de\s+)?[a-zäéûñóśźż]+\.?\s+(?:de\s+)?\d{4}\b`)

// isDateLine reports whether n is a short line that gives a date, with or
// without a time and a label ("Published", "Aktualisiert").
func isDateLine(n *html.Node) bool {
	l := visibleLen(n)
	if n.DataAtom == atom.Time {
		return true
	}
	if t := find(n, atom.Time); t != nil && visibleLen(t) == l {
		return true
	}
	return l <= maxDateLineChars && rxDate().MatchString(collapse(textOf(n)))
}

// minSentenceWords is how many words in lower case make a line a
// sentence rather than a label with a date ("The trial is set to begin on
// 12 May 2025." against "Gespeichert von rasos am 24. Juli 2017").
const minSentenceWords = 4

// isSentence reports whether n's text reads as a sentence: it holds
// minSentenceWords words or more that begin in lower case.
func isSentence(n *html.Node) bool {
	return lowerWords(textOf(n)) >= minSentenceWords
}

// lowerWords counts the words of t that begin in lower case.
func lowerWords(t string) int {
	lower := 0
	for _, w := range strings.Fields(t) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) {
			lower++
		}
	}
	return lower
}

// rxAdLabel matches a block that only labels an advertisement.
var rxAdLabel = lazyRegexp(`(?i)^\W*(?:advertisement|advertising|supported by|paid content|paid post|(?:powered|promoted|presented) by\s+[\p{L}\d .&-]{1,30}|anzeige|werbung|reklama|publicidad|publicité|pubblicità|sponsored|gesponsert)\W*$`)

// rxInterface matches a block that is the page's interface, not its text:
// share, save and print buttons' labels, a platform's name alone
// ("Facebook"), "Photo"/"Image"/"Video" labels, "Load more", "Write a
// comment", "Comments (5 posted)", reading-time, read-aloud and video
// player widgets, view counters, "N bloggers like this", gallery labels,
// product buttons ("Check price", "Buy now") and subscription prices
// ("$7/month"), kickers that only label ("Exclusive", "Breaking news"),
// "Story continues below advertisement", an "External content"
// placeholder, in the languages of the dev sets.
var rxInterface = lazyRegexp(`(?i)^\W*(?:(?:social )?share(?: (?:or comment on )?this(?: article| story| post| page)?)?(?: on \w+)?|gift (?:this )?article|photo|image|video|foto|bild|found this helpful|was this (?:article|page|answer) helpful\??|helpful\?|save|facebook|twitter|instagram|youtube|tiktok|linkedin|pinterest|whatsapp|comments? \(\d+(?: posted)?\)|gallery\s*:\s*[^|]{1,60}\|\s*\d+\s*(?:photos|images|pictures|bilder|fotos)|from\s+[$€£]\s?\d[\d.,]*|[$€£]\s?\d[\d.,]*\s*(?:/|per|a)\s*(?:month|year|week|mo|yr|person/year|monat|jahr)|(?:exclusive|breaking(?: news)?|developing(?: story)?|live updates)|(?:current time|duration(?: time)?|remaining time)\s*-?\d{1,2}:\d{2}(?::\d{2})?|(?:watch|play) (?:the )?video\s*\d{1,2}:\d{2}(?::\d{2})?|\d[\d,.]*\s*(?:views?|reads|aufrufe|leser|vues|visitas|wyświetle\w*)|(?:sign up|subscribe|register) (?:for|to) (?:our|the|my) (?:free )?(?:[\w-]+ ){0,3}(?:newsletters?|e-?mails?|updates)|apply now|jetzt bewerben|(?:check|see|view|shop) (?:the )?(?:price|deal|product|it|now)(?: (?:at|on) [\w.]+)?|buy (?:now|it now|it here|on [\w.]+|at [\w.]+)|(?:see|shop) (?:it )?(?:at|on) [\w.]+|jetzt (?:kaufen|bestellen|ansehen)|zum (?:angebot|shop|produkt)|bei [\w.]+ (?:ansehen|kaufen|bestellen)|ver (?:oferta|precio)|voir l'offre|comment on this (?:story|article)|save (?:this )?(?:article|story)|scroll down for (?:video|more)|teilen|artikel teilen|compartir|partager|udostępnij|condividi|print(?: this)?(?: article| page)?|drucken|imprimer|imprimir|(?:load|show) more(?: comments| stories)?|mehr laden|lade weitere inhalte|weitere inhalte laden|cargar más|(?:write|leave|post|add) a comment|kommentar(?:e)? (?:schreiben|verfassen)|deja un comentario|laisser un commentaire|%d (?:bloggers?|bloggern) (?:like|gefällt) (?:this|das)|gefällt mir|listen to (?:this )?(?:article|story)|artikel (?:anhören|vorlesen)|text vorlesen|(?:reading time|lesezeit|tiempo de lectura|temps de lecture)\W*(?:ca\.?\s*)?\d+\s*\w*|\d+\s*(?:min(?:ute)?s?\.?|minuten) (?:read|lesezeit|lesedauer|de lectura|de lecture)|externer inhalt|external content|contenido externo|contenu externe|(?:the )?(?:story|article) continues (?:below|after)(?: (?:this )?(?:advertisement|ad))?|continue reading(?: the main story| below)?|scroll (?:down )?to continue(?: with content)?|skip (?:advertisement|ad)|loading(?: video| comments| content)?|please enable javascript\b.{0,60}|enlarge this image|toggle caption|(?:hide|show) caption|expand (?:image|photo)|view (?:image|photo|gallery)(?: in fullscreen)?|open (?:image|photo) in gallery|listen\W*\d+\s*min(?:ute)?s?)\W*$`)

// rxPriceAt matches a product widget's price line: "$199 at Amazon",
// "49 € bei Otto". The shop's name is capitalised ("$20 at the door" is
// a sentence).
var rxPriceAt = lazyRegexp(`^\W*(?:[$€£]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|EUR|USD))\s*(?:at|bei|on|from|chez|en|auf)\s+\p{Lu}[\p{L}\d .&'-]{1,30}\W*$`)

// maxInterfaceChars bounds a block removed as interface text.
const maxInterfaceChars = 50

// maxAdLabelChars bounds an advertisement label.
const maxAdLabelChars = 30

// maxInlineCTAChars bounds a call to action removed from inside the
// content: a line or two with a link.
const maxInlineCTAChars = 200

// pruneInside removes, anywhere in the content, a box of subscription
// plans, blocks that only label an advertisement, interface text
// (rxInterface, rxPriceAt; a heading of one word stays) and short calls
// to action (subscribe, newsletter, follow us) whose text is mostly a
// link. A span or link set in a sentence is a word of it and stays.
func pruneInside(root *html.Node) {
	removeIf(root, func(n *html.Node) bool {
		// a box of subscription plans goes whole, before its prices go
		// one by one as interface text
		if isOfferBox(n) {
			return true
		}
		switch tag(n) {
		case atom.P, atom.Div, atom.Section, atom.Aside, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Span:
		default:
			return false
		}
		l, ok := visibleAtMost(n, maxInlineCTAChars)
		if !ok || l == 0 || inlineInText(n) {
			return false
		}
		// the cheap tests first: the regular expressions are slow on a
		// page of many short paragraphs
		if l <= maxAdLabelChars && !isHeading(n) && rxAdLabel().MatchString(collapse(textOf(n))) {
			return true
		}
		if l <= maxInterfaceChars {
			t := collapse(textOf(n))
			// a heading of one word ("Photo", "Share") heads a section
			// of a review or a help page
			if (!isHeading(n) || strings.Contains(t, " ")) && (!strings.HasSuffix(t, ".") || strings.HasSuffix(t, "..") || strings.Contains(t, " ")) && rxInterface().MatchString(t) || rxPriceAt().MatchString(t) {
				return true
			}
		}
		return linkDensity(n) > 0.5 && rxCallToAction().MatchString(collapse(textOf(n)))
	})
}

// tag is n's element name as an atom: readability renames elements (a
// <div> of text becomes a <p>) without setting DataAtom.
func tag(n *html.Node) atom.Atom {
	if n.DataAtom == 0 && n.Type == html.ElementNode {
		return atom.Lookup([]byte(n.Data))
	}
	return n.DataAtom
}

// isDataTable reports whether n is a table of data rather than layout: it
// has header cells, and rows of two cells or more.
func isDataTable(n *html.Node) bool {
	if tag(n) != atom.Table {
		return false
	}
	headers, wide := 0, 0
	walkElements(n, func(e *html.Node) {
		switch tag(e) {
		case atom.Th:
			headers++
		case atom.Tr:
			cells := 0
			for c := e.FirstChild; c != nil; c = c.NextSibling {
				if t := tag(c); t == atom.Td || t == atom.Th {
					cells++
				}
			}
			if cells >= 2 {
				wide++
			}
		}
	})
	return headers > 0 && wide >= 2
}

// rxStampLabel matches the label of a date stamp: "Published", "Updated",
// "Gespeichert".
var rxStampLabel = lazyRegexp(`(?i)\b(?:published|posted|updated|date|news date|last (?:updated|modified)|gespeichert|veröffentlicht|aktualisiert|publicado|publié|mis à jour|actualizado)\b`)

// endsSentence reports whether n's text is a sentence that gives a date
// ("Sentencing is set for May 12, 2025.", "It was Nov. 8, 2016.") rather
// than a date stamp: it ends with a period, holds a word in lower case,
// and has no stamp label.
func endsSentence(n *html.Node) bool {
	t := collapse(textOf(n))
	return strings.HasSuffix(t, ".") && !rxStampLabel().MatchString(t) && lowerWords(t) > 0
}

// rxCTAWeak matches the words of rxCallToAction that a story uses as
// often as a pitch does ("Netflix had 260 million subscribers",
// "Durov founded Telegram").
var rxCTAWeak = lazyRegexp(`(?i)subscri(?:ber|ption)s?|\btelegram\b|\bwhatsapp\b`)

// rxCTAStrong matches the words that make a block a call to action.
var rxCTAStrong = lazyRegexp(`(?i)subscribe\b|newsletter|\bclick here\b|sign(?:ing)? up|\bfollow us\b|\bjoin\b|\bbecome a\b|\bsupport (?:us|our|independent)\b|download (?:the|our)|\bget (?:the|our)\b`)

// isTailCallToAction reports whether n, at the content's end, is a call to
// action: worded as one (isCallToAction), and, when only the weak words
// matched, linked or worded with a call's verb.
func isTailCallToAction(n *html.Node) bool {
	if !isCallToAction(n) {
		return false
	}
	t := collapse(textOf(n))
	return hasLink(n) || !rxCTAWeak().MatchString(t) || rxCTAStrong().MatchString(t)
}

// inBlockquote reports whether n sits in a quotation, whose last line (an
// attribution, "— NAME") is the quote's, not the page's end matter.
func inBlockquote(n *html.Node) bool {
	return hasAncestor(n, func(p *html.Node) bool { return tag(p) == atom.Blockquote })
}

// hasAncestor reports whether an element above n satisfies is.
func hasAncestor(n *html.Node, is func(*html.Node) bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if is(p) {
			return true
		}
	}
	return false
}
