package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// In-body furniture: short lines inside the article that people who
// annotate articles leave out, recognised by their wording and their
// length, wherever they sit: paywall and membership pitches ("To view the
// full story, please subscribe", "Already a subscriber?"), "Updated …"
// stamps, gallery counters ("3 of 12"), and "Related: …" teasers.

// maxFurnitureChars bounds a block removed for its wording: a few lines
// (a disclosure is two or three sentences).
const maxFurnitureChars = 300

// rxPitch matches a paywall or membership pitch, in the languages of the
// dev sets.
var rxPitch = lazyRegexp(`(?i)\bto (?:view|read|continue reading|keep reading) (?:the|this) (?:full |whole |entire )?(?:story|article|post)|already an? (?:subscriber|member)|subscribers? (?:only|also receive|get)|please (?:subscribe|log ?in|sign ?in) to\b|\bsupport (?:our|independent|quality) journalism|become a (?:member|subscriber|patron)|if you (?:enjoyed|liked|value) (?:reading )?this|would you consider supporting|schon abonnent|jetzt (?:abonnieren|unterstützen)|únete a nuestra comunidad|hazte (?:socio|miembro)|apoya el periodismo|déjà abonné|abonnez-vous|zostań (?:patronem|subskrybentem)`)

// rxStamp matches an "Updated …" stamp with a time or date. ("Published
// …" lines stay: annotators keep the date a story was published as often
// as they drop it.)
var rxStamp = lazyRegexp(`(?i)^\W*(?:updated|last (?:updated|modified)|aktualisiert|actualizad[oa]|mis à jour|aggiornat[oa]|zaktualizowano)\b.{0,50}?(?:\d{1,2}[:.]\d{2}|\d{4}|\b(?:am|pm|et|est|edt|utc|gmt|cet|cest)\b)`)

// rxCounter matches a gallery counter: "3 of 12", "3/12", "Bild 3 von 12".
var rxCounter = lazyRegexp(`(?i)^\W*(?:(?:image|photo|picture|slide|bild|foto|imagen|zdjęcie)\s+)?\d{1,3}\s*(?:of|/|von|de|sur|di|z)\s*\d{1,3}\W*$`)

// rxRelated matches the label of an inline related-story teaser.
var rxRelated = lazyRegexp(`(?i)^\W*(?:related(?: stories| articles| coverage| content| reading| post| posts)?|more on this(?: story| topic)?|more:|ähnliche artikel|verwandte artikel|mehr dazu|relacionad[oa]s?|noticias relacionadas|à lire (?:aussi|également)|sur le même sujet|correlati|powiązane)\s*[:|]`)

// rxDisclosure matches an advertising or affiliate disclosure: "This
// post contains affiliate links", "We may receive compensation when you
// click…", "*Werbung", "Dieser Beitrag enthält Werbung", in the
// languages of the dev sets.
var rxDisclosure = lazyRegexp(`(?i)^\W*(?:werbung|anzeige|sponsored|advertorial)\W*(?:$|dieser|this)|\bthis (?:post|article|page|story|review) (?:contains|may contain|includes) (?:affiliate|references to products|sponsored|paid)|\bwe may (?:receive|earn|get) (?:a )?(?:small )?(?:compensation|commission)|\b(?:contains|uses) affiliate links|\baffiliate links?\b.{0,60}\b(?:commission|provision)|(?:dieser|der) (?:beitrag|artikel|post) enthält (?:werbung|affiliate|werbelinks|provisionslinks)|\bbei den (?:verlinkungen|links) handelt es sich um (?:affiliate|provisions)|\b(?:sind|handelt es sich um) affiliate[- ]links|este (?:artículo|post) contiene enlaces de afiliado|cet article contient des liens (?:affiliés|sponsorisés)`)

// pruneFurniture removes short in-body pitches, stamps, counters and
// related-story teasers from the content.
func pruneFurniture(root *html.Node) {
	removeIf(root, func(n *html.Node) bool {
		switch tag(n) {
		case atom.P, atom.Div, atom.Li, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		default:
			return false
		}
		if l, ok := visibleAtMost(n, maxFurnitureChars); !ok || l == 0 {
			return false
		}
		t := collapse(textOf(n))
		return rxPitch().MatchString(t) || rxStamp().MatchString(t) || rxCounter().MatchString(t) || rxDisclosure().MatchString(t) ||
			rxRelated().MatchString(t) && linkDensity(n) > 0
	})
}
