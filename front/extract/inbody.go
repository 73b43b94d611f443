package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// In-body furniture: short lines inside the article that people who
// annotate articles leave out, recognised by their wording and their
// length, wherever they sit: paywall and membership pitches ("To view the
// full story, please subscribe", "Already a subscriber?"), advertising
// and affiliate disclosures, cookie notices, "Updated …" stamps and lines
// that are only a timestamp, a post's metadata ("Views: … | Tags: …"),
// gallery counters ("3 of 12"), "Related: …" and "[Read: …]" teasers, and
// runs of linked headlines of other stories (pruneTeaserRuns).

// maxFurnitureChars bounds a block removed for its wording: a few lines
// (a disclosure is two or three sentences).
const maxFurnitureChars = 300

// rxPitch matches a paywall or membership pitch, in the languages of the
// dev sets.
var rxPitch = lazyRegexp(`(?i)\bto (?:(?:view|read) (?:the|this) (?:full|whole|entire) |(?:continue|keep) reading (?:the|this) (?:full |whole |entire )?)(?:story|article|post)|already an? (?:subscriber|member)\s*\?|^\W*already an? (?:subscriber|member)\b|\bsubscribers? only\W*$|subscribers? also receive|(?:our|paying|new|first-time) subscribers? get\b|please (?:subscribe|log ?in|sign ?in) to (?:comment|continue|read|view|access|keep)\b|(?:^\W*|please |help |you can |to )support (?:our|independent|quality) journalism|\bsupport our journalism|^\W*(?:please )?become a (?:member|subscriber|patron)\b|become a (?:member|subscriber|patron)(?: today| now)?\W*$|if you (?:enjoyed|liked|value) (?:reading )?this(?:\s*[,.!?]|\s*$| (?:article|story|post|piece|newsletter|journalism|reporting|work|content)\b)|would you consider supporting|schon abonnent|jetzt (?:abonnieren|unterstützen)|únete a nuestra comunidad|hazte (?:socio|miembro)|apoya el periodismo|déjà abonné|abonnez-vous|zostań (?:patronem|subskrybentem)|\bcancel (?:at )?any ?time\W*$|^\W*we accept (?:all major )?credit cards?\b|\bjoin (?:now|today) (?:or|and) renew\b|unlimited digital access|unlimited access to (?:our|all of our|all our) (?:journalism|reporting|articles|stories|content)`)

// rxStamp matches an "Updated …" stamp with a time or date. ("Published
// …" lines stay: annotators keep the date a story was published as often
// as they drop it.)
var rxStamp = lazyRegexp(`(?i)^\W*(?:updated|last (?:updated|modified)|aktualisiert|actualizad[oa]|mis à jour|aggiornat[oa]|zaktualizowano)\W*(?:(?:on|at|am|um|le|el|il|the)\s+)?(?:\d|(?:jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz]|mon|tue|wed|thu|fri|sat|sun|yesterday|today)[a-zä]*\b)`)

// rxCounter matches a gallery counter: "3 of 12", "3/12", "Bild 3 von 12".
var rxCounter = lazyRegexp(`(?i)^\W*(?:(?:image|photo|picture|slide|bild|foto|imagen|zdjęcie)\s+\d{1,3}\s*(?:of|/|von|de|sur|di|z)|\d{1,3}\s*(?:of|von|de|sur|di|z)|\d{1,3}\s+/)\s*\d{1,3}\W*$`)

// rxRelated matches the label of an inline related-story teaser.
var rxRelated = lazyRegexp(`(?i)^\W*(?:related(?: stories| articles| coverage| content| reading| post| posts)?|more on this(?: story| topic)?|more:|read (?:more|also|next)|also read|see also|watch(?: now)?|listen|photos|video|lesen sie (?:auch|mehr)|auch interessant|leer (?:más|también)|lea también|lire (?:aussi|la suite)|dowiedz się więcej|czytaj (?:też|także|również|więcej)|zobacz (?:też|także|również)|ähnliche artikel|verwandte artikel|mehr dazu|relacionad[oa]s?|noticias relacionadas|à lire (?:aussi|également)|sur le même sujet|correlati|powiązane)\s*[:|]`)

// pitchGate holds a word of every alternative of rxPitch.
var pitchGate = keywordGate{"cancel", "we accept", "join now", "join today", "unlimited", "to view", "to read", "to continue", "to keep", "already a", "subscriber", "please", "journalism", "become a", "if you", "consider", "abonn", "jetzt", "únete", "hazte", "apoya", "zostań"}

// rxDisclosure matches an advertising or affiliate disclosure: "This
// post contains affiliate links", "We may receive compensation when you
// click…", "*Werbung", "Dieser Beitrag enthält Werbung", in the
// languages of the dev sets.
var rxDisclosure = lazyRegexp(`(?i)^\W*(?:werbung|anzeige|sponsored|advertorial)\W*(?:$|dieser|this)|\bthis (?:post|article|page|story|review) (?:contains|may contain|includes) (?:affiliate|references to products|sponsored|paid)|\bwe may (?:receive|earn|get) (?:a )?(?:small )?(?:compensation|commission)|\b(?:contains|uses) affiliate links|\b(?:we|us|our|i)\b.{0,40}\baffiliate links?\b.{0,60}\b(?:commission|provision)|\baffiliate links?\b.{0,60}\b(?:commission|provision)\b.{0,30}\b(?:we|us|our)\b|^\W*affiliate links?\b.{0,60}\b(?:commission|provision)|(?:dieser|der) (?:beitrag|artikel|post) enthält (?:werbung|affiliate|werbelinks|provisionslinks)|\bbei den (?:verlinkungen|links) handelt es sich um (?:affiliate|provisions)|\b(?:sind|handelt es sich um) affiliate[- ]links|este (?:artículo|post) contiene enlaces de afiliado|cet article contient des liens (?:affiliés|sponsorisés)`)

// rxDateOrTime matches a time of day: 14:05, 3.59 pm.
var rxDateOrTime = lazyRegexp(`\b\d{1,2}:\d{2}|(?i)\b\d{1,2}\.\d{2}\s*(?:am|pm|uhr|h)\b`)

// rxCookieNotice matches a cookie consent notice.
var rxCookieNotice = lazyRegexp(`(?i)\b(?:this (?:web)?site uses cookies|we use cookies|(?:diese|unsere) (?:website|webseite|seite) (?:verwendet|nutzt) cookies|wir (?:verwenden|nutzen) cookies|utilizamos cookies|este sitio (?:web )?utiliza cookies|nous utilisons des cookies|ce site utilise des cookies|używamy (?:plików )?cookies|questo sito utilizza (?:i )?cookie)`)

// cookieGate holds a word of every alternative of rxCookieNotice.
var cookieGate = keywordGate{"cookie"}

// rxMetaLabel matches a label of a post's metadata: views, who added it,
// tags, category, rating, comments, date, print, permalink.
var rxMetaLabel = lazyRegexp(`(?i)(?:^|[|·•]\s*)(?:views|aufrufe|hits|zugriffe|added by|posted by|hinzugefügt von|tags?|schlagwörter|schlagworte|category|categories|kategorien?|catégories?|categoría|rating|bewertung|comments|kommentare(?: insgesamt)?|commentaires|comentarios|news date|date|datum|fecha|print|drucken|imprimer|permalink|permalien)\s*:`)

// minMetaLabels is how many metadata labels a line holds to be taken
// for the post's metadata rather than a sentence.
const minMetaLabels = 2

// rxTimestamp matches a line that is only a time, or a date (numbers,
// month and day names) with a time, with at most a time zone and a name
// after it: "24. März 2004, 19:49 | Genesis", "3:59 PM", "1:39 PM ET",
// "asked Feb 6, 2014 at 20:37". "John 3:16" and "Doors open at 7:30 pm."
// are not.
var rxTimestamp = lazyRegexp(`(?i)^\W*(?:(?:asked|answered|edited|modified|posted|geschrieben|gepostet|publié|publicado)\s+)?(?:(?:\d[\d.,/–—-]*|(?:jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz]|ene|abr|ago|dic|janv|févr|avr|juil|août|déc|sty|lut|kwi|cze|lip|sie|wrz|paź|lis|gru|mon|tue|wed|thu|fri|sat|sun|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|jueves|viernes|sábado|domingo|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember|day|nesday|sday|urday|rsday|z|s|ier|o|io|embre|tembre|obre|iembre|tag|ntag|nstag|twoch|nerstag|itag|stag|es|di|redi|edi|ches)?\.?,?|on|am|um|le|el|de|del|the|[–—-])\s+){0,6}?(?:at\s+|à\s+|a las\s+|,\s*)?(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s*(?:am|pm|a\.m\.|p\.m\.|uhr|h))?(?:\s*(?:et|est|edt|ct|cst|cdt|pt|pst|pdt|gmt|utc|bst|cet|cest|mez|mesz))?(?:\s*(?:[|·•]|by|von|por|par)\s*[\p{L}\d ._-]{1,30})?\W*$`)

// disclosureGate holds a word of every alternative of rxDisclosure.
var disclosureGate = keywordGate{"werbung", "werbelink", "anzeige", "sponsor", "advertorial", "affiliat", "afiliado", "affiliés", "references to products", "paid", "compensation", "commission", "provision"}

// rxPricePeriod matches a subscription's price: "$7/month", "70 € pro
// Jahr", "$60/person/year".
var rxPricePeriod = lazyRegexp(`(?i)(?:[$€£]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|eur|usd))\s*(?:/|per|a|pro)\s*(?:person\s*/\s*)?(?:month|year|week|mo|yr|monat|jahr|woche|mes|año|mois|an)(?:[^\p{L}]|$|(?-i:\p{Lu}))`)

// maxOfferChars bounds a subscription offer: a box of plans and prices.
const maxOfferChars = 600

// isOfferBox reports whether n is a box that sells subscriptions: at most
// maxOfferChars of text holding two prices or more per month or year.
func isOfferBox(n *html.Node) bool {
	switch tag(n) {
	case atom.Div, atom.Section, atom.Aside:
	default:
		return false
	}
	if _, ok := visibleAtMost(n, maxOfferChars); !ok {
		return false
	}
	return len(rxPricePeriod().FindAllStringIndex(textOf(n), 2)) >= 2
}

// maxStampChars bounds an "Updated …" stamp: a line.
const maxStampChars = 200

// rxReadLink matches a linked teaser set as "[Read: …]". Only a block
// that is that one link goes ("Read: chapter 3, then answer …" is an
// instruction).
var rxReadLink = lazyRegexp(`(?i)^\W*read\s*:`)

// minReadLinkDensity is the share of a "Read: …" block inside its link.
const minReadLinkDensity = 0.9

// pruneFurniture removes short in-body pitches, stamps, counters and
// related-story teasers from the content.
func pruneFurniture(root *html.Node) {
	removeIf(root, func(n *html.Node) bool {
		switch tag(n) {
		case atom.P, atom.Div, atom.Li, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		default:
			return false
		}
		l, ok := visibleAtMost(n, maxFurnitureChars)
		if !ok || l == 0 {
			return false
		}
		t := collapse(textOf(n))
		if len(rxMetaLabel().FindAllStringIndex(t, minMetaLabels)) >= minMetaLabels {
			return true
		}
		if tag(n) != atom.Li && !((isHeading(n) || boldOnly(n)) && !strings.Contains(strings.ToLower(collapse(textOf(n))), " by ")) && l <= maxDateLineChars && rxTimestamp().MatchString(t) && rxDateOrTime().MatchString(t) {
			return true
		}
		lower := strings.ToLower(t)
		return pitchGate.admits(lower) && rxPitch().MatchString(t) || l <= maxStampChars && rxStamp().MatchString(t) || rxCounter().MatchString(t) ||
			disclosureGate.admits(lower) && rxDisclosure().MatchString(t) ||
			cookieGate.admits(lower) && rxCookieNotice().MatchString(t) ||
			rxRelated().MatchString(t) && linkDensity(n) > 0 ||
			rxReadLink().MatchString(t) && linkDensity(n) >= minReadLinkDensity
	})
}

// minTeaserWords is the fewest words of a linked headline.
const minTeaserWords = 3

// pruneTeaserRuns removes runs of two or more paragraphs that are each
// wholly one link of a few words: headlines of other stories set between
// the article's paragraphs ("Five things we learned from the interview").
// A list of links is left to the passes that judge lists.
func pruneTeaserRuns(root *html.Node) {
	var run, drop []*html.Node
	flush := func() {
		if len(run) >= 2 {
			drop = append(drop, run...)
		}
		run = run[:0]
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if visibleRunes(c.Data) > 0 {
					flush()
				}
			case c.Type != html.ElementNode:
			case isTeaserLine(c):
				run = append(run, c)
			case tag(c) == atom.P || isHeading(c) || isList(c) || tag(c) == atom.Table || tag(c) == atom.Blockquote || tag(c) == atom.Pre:
				flush()
			case visibleLen(c) == 0:
			default:
				flush()
				walk(c)
				flush()
			}
		}
	}
	walk(root)
	flush()
	for _, d := range drop {
		d.Parent.RemoveChild(d)
	}
}

// rxFileLink matches the address of a document to download.
var rxFileLink = lazyRegexp(`(?i)\.(?:pdf|csv|xlsx?|docx?|pptx?|zip|odt|ods|epub)(?:[?#]|$)`)

// isTeaserLine reports whether n is a paragraph that is wholly one link
// of at least minTeaserWords words and at most a line.
func isTeaserLine(n *html.Node) bool {
	if tag(n) != atom.P && tag(n) != atom.Div {
		return false
	}
	l, ok := visibleAtMost(n, maxFurnitureChars)
	if !ok || l == 0 || holdsBlocks(n) || linkDensity(n) < 1 {
		return false
	}
	links, anchors := 0, 0
	walkElements(n, func(e *html.Node) {
		if tag(e) == atom.A {
			links++
			// a link to a place in a page is a table of contents, one to a
			// file a download
			if h, _ := attr(e, "href"); strings.Contains(h, "#") || rxFileLink().MatchString(h) {
				anchors++
			}
		}
	})
	return links == 1 && anchors == 0 && len(strings.Fields(textOf(n))) >= minTeaserWords && !rxDocCall().MatchString(collapse(textOf(n)))
}

// boldOnly reports whether all of n's text is in <strong> or <b>: a
// subheading an editor set, such as a live blog's "10:42 a.m.".
func boldOnly(n *html.Node) bool {
	bold := 0
	walkElements(n, func(e *html.Node) {
		if t := tag(e); t == atom.Strong || t == atom.B {
			bold += visibleLen(e)
		}
	})
	return bold > 0 && bold == visibleLen(n)
}

// rxDocCall matches a link that points to a document of the story ("Read
// the ruling", "Download the data"), not to another story.
var rxDocCall = lazyRegexp(`(?i)^\W*(?:read|download|view|see|watch|listen to)\s+(?:the|a|our)\b`)
