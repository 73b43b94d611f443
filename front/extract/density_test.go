package extract

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parseBody parses doc and returns its <body>.
func parseBody(t *testing.T, doc string) *html.Node {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return find(root, atom.Body)
}

// byID is the element under n with the given id.
func byID(n *html.Node, id string) *html.Node {
	var found *html.Node
	walkElements(n, func(e *html.Node) {
		if found == nil && attrIs(e, "id", id) {
			found = e
		}
	})
	return found
}

const sentence = "The council voted on Tuesday to rebuild the old harbour wall, which storms damaged last winter. "

// TestAlternative checks when the densest prose container replaces
// readability's result (id "r"): only when they share little prose and it
// has much more.
func TestAlternative(t *testing.T) {
	story := `<div id="story"><p>` + strings.Repeat(sentence, 3) + `</p><p>` + strings.Repeat(sentence, 2) + `</p></div>`
	form := `<form id="r"><label>Your e-mail address (required)</label><input><label>First name</label><input><label>Country</label><input><button>Sign up</button></form>`
	teasers := `<ul id="r"><li><a href="/a">` + sentence + `</a></li><li><a href="/b">` + sentence + `</a></li></ul>`
	cases := []struct {
		name, body string
		want       string // id of the container taken, "" when readability's stands
	}{
		{"newsletter form", story + form, "story"},
		{"teaser list", teasers + story, "story"},
		{"readability inside the container", `<div id="story"><div id="r"><p>` + strings.Repeat(sentence, 3) + `</p></div><p>` + strings.Repeat(sentence, 2) + `</p></div>`, ""},
		{"readability's block as long", `<div id="r"><p>` + strings.Repeat(sentence, 4) + `</p></div><aside>` + story + `</aside>`, ""},
		{"container mostly links", `<div id="story"><p><a href="/x">` + strings.Repeat(sentence, 3) + `</a></p><p>` + sentence + `</p></div>` + form, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := parseBody(t, "<html><body><nav><a href=/>Home</a></nav>"+tc.body+"</body></html>")
			dense, prose := densestContainer(body)
			got := alternative(dense, prose, byID(body, "r"))
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("took %s %v, want readability's result", got.Data, got.Attr)
			case tc.want != "" && got != byID(body, tc.want):
				t.Errorf("took %v, want #%s", got, tc.want)
			}
		})
	}
}

// TestAlternativeInPipeline runs a page whose readability result is a
// newsletter form: the story comes out instead.
func TestAlternativeInPipeline(t *testing.T) {
	doc := `<!doctype html><html><head><title>T</title></head><body><div class="content"><article><h1>Harbour</h1><div class="main"><p>` +
		strings.Repeat(sentence, 2) + `</p></div></article></div><div class="sidebar"><form><h3>Je m’informe</h3>` +
		strings.Repeat(`<div class="field"><label>Recevoir les informations, les appels, les rendez-vous, et les lettres, chaque mois</label><input type="checkbox"></div>`, 6) +
		`<p>En remplissant ce formulaire, vous pourrez être inscrit à notre liste de diffusion, et vous pourrez à tout moment vous désabonner.</p></form></div></body></html>`
	r := mustHTML(t, doc, "https://example.org/a")
	if !strings.Contains(r.Markdown, "harbour wall") {
		t.Errorf("story missing:\n%s", r.Markdown)
	}
	if strings.Contains(r.Markdown, "formulaire") {
		t.Errorf("form kept:\n%s", r.Markdown)
	}
}

// TestRecoverBefore checks the prose put back in front of readability's
// result (id "r").
func TestRecoverBefore(t *testing.T) {
	lead := `<p class="x">LEAD1 The harbour will be closed for a month while the work goes on. The ferries will stop at the old pier, and the market moves to the square by the church.</p>`
	rest := `<div id="r"><p>` + strings.Repeat(sentence, 3) + `</p><p>` + strings.Repeat(sentence, 3) + `</p></div>`
	cases := []struct {
		name, head string
		want       bool
	}{
		{"lead before the body", lead, true},
		{"headline", `<h1>LEAD1 The harbour will be closed for a month while the work goes on</h1>`, false},
		{"byline", `<p>By LEAD1 Jane Doe and John Roe, with reporting from the harbour</p>`, false},
		{"byline markup", `<p>LEAD1 Written on the quay, in the rain, <span itemprop="author">Jane Doe</span></p>`, false},
		{"dateline", `<p>LEAD1 Updated March 5, 2021, 10:02</p>`, false},
		{"caption", `<div class="image-caption"><p>LEAD1 The harbour wall after the storm of last winter, seen from the quay</p></div>`, false},
		{"too long", `<p>LEAD1 ` + strings.Repeat(sentence, 9) + `</p>`, false},
		{"teaser card", `<div><h2><a href="/other">Another story</a></h2><p>LEAD1 The summary of another story that the page links to, in a list.</p></div>`, false},
		{"after a plain heading", `<h2>The harbour</h2>` + lead, true},
		{"one-line subtitle", `<p class="x">LEAD1 The harbour will be closed for a month while the work goes on.</p>`, false},
		{"video player message", `<div class="video-player"><div class="player-error-desc">LEAD1 Unfortunately, this video is not available in your region.</div></div>`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := parseBody(t, `<html><body><article id="a">`+tc.head+rest+`</article></body></html>`)
			content := clone(byID(body, "r"))
			dense, _ := densestContainer(body)
			got := false
			for _, b := range recoverBefore(dense, content) {
				if strings.Contains(textOf(b), "LEAD1") {
					got = true
				}
			}
			if got != tc.want {
				t.Errorf("put back %v, want %v", got, tc.want)
			}
		})
	}
}

// TestProseCJK checks that text in a script written without spaces counts
// as prose at sentence length.
func TestProseCJK(t *testing.T) {
	body := parseBody(t, "<html><body><div><p>一波波接續性低溫寒流報到 已將新竹尖石鄉後山一帶層層山巒披上嫣紅的彩衣</p></div></body></html>")
	if p, _ := proseOf(body); p == 0 {
		t.Error("a Chinese sentence is not prose")
	}
}

// TestPruneInside lists blocks inside the article text, between its
// paragraphs, that are removed; each case leaks without its heuristic.
func TestPruneInside(t *testing.T) {
	cases := []struct{ name, block string }{
		{"ad label", `<div class="x">- BOILER1 -</div><p>Advertisement</p>`},
		{"linked call to action", `<p><a href="/subscribe">Subscribe to our newsletter BOILER1 for the news first</a></p>`},
		{"caption without credit", `<figure><img src="/p.jpg"><figcaption>BOILER1 The harbour at dawn.</figcaption></figure>`},
		{"caption-named paragraph", `<div class="wp-caption"><img src="/p.jpg" width="600"><p class="wp-caption-text">BOILER1 The harbour at dawn.</p></div>`},
		{"caption ending in its credit", `<p>BOILER1 The harbour at dawn, seen from the pier. Foto: Andina</p>`},
		{"caption ending in a copyright", `<p>BOILER1 The harbour at dawn. | © Agency/Getty Images</p>`},
		{"caption on the line under its picture", `<p><img src="/p.jpg" width="600"><br>BOILER1 The harbour at dawn</p>`},
		{"figure label after its picture", `<p><img src="/p.jpg">Abbildung 2: BOILER1 Der Hafen am Morgen, vom Pier aus gesehen.</p>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			block := strings.Replace(tc.block, "- BOILER1 -", "Anzeige", 1)
			r := mustHTML(t, story("<h1>Title</h1>", "<p>"+strings.Repeat(filler, 2)+"</p>"+block, ""), "https://example.org/a")
			if strings.Contains(r.Markdown, "BOILER1") || strings.Contains(r.Markdown, "Advertisement") || strings.Contains(r.Markdown, "Anzeige") {
				t.Errorf("boilerplate in output:\n%s", r.Markdown)
			}
			if !strings.Contains(r.Markdown, "real article text") {
				t.Errorf("article missing:\n%s", r.Markdown)
			}
		})
	}
	// what stays: a sentence about a newsletter, a paragraph that opens
	// with a small picture or a picture beside its text, a sentence that
	// names a photographer or a share
	kept := []struct{ name, block, want string }{
		{"newsletter in the story", `<p>KEPT1 The council said its newsletter would report the vote.</p>`, "KEPT1"},
		{"paragraph after an icon", `<p><img src="/i.png" width="16" height="16"><br>KEPT1 The council voted.</p>`, "KEPT1"},
		{"paragraph beside a picture", `<p><img src="/p.jpg">KEPT1 The council voted on Friday, after a long debate.</p>`, "KEPT1"},
		{"long text under a picture", `<p><img src="/p.jpg"><br>KEPT1 ` + strings.Repeat(filler, 2) + `</p>`, "KEPT1"},
		{"photographer in a sentence", `<p>KEPT1 The photo, by a local artist, hangs in the hall.</p>`, "KEPT1"},
	}
	for _, tc := range kept {
		t.Run(tc.name, func(t *testing.T) {
			r := mustHTML(t, story("<h1>Title</h1>", "<p>"+strings.Repeat(filler, 2)+"</p>"+tc.block, ""), "https://example.org/a")
			if !strings.Contains(r.Markdown, tc.want) {
				t.Errorf("%q missing:\n%s", tc.want, r.Markdown)
			}
		})
	}
}

// TestNegatedBoilerName checks that a class that negates a boilerplate
// word ("non-paywall", "no-ads") does not remove the article.
func TestNegatedBoilerName(t *testing.T) {
	for _, class := range []string{"row non-paywall", "no-ads"} {
		t.Run(class, func(t *testing.T) {
			doc := `<!doctype html><html><head><title>T</title></head><body><nav><a href=/>Home</a></nav><section class="` + class + `"><article><p>KEPT1 ` +
				strings.Repeat(filler, 2) + `</p></article></section><div class="teasers">` + strings.Repeat(`<p><a href="/x">`+filler+`</a></p>`, 8) + `</div></body></html>`
			r := mustHTML(t, doc, "https://example.org/a")
			if !strings.Contains(r.Markdown, "KEPT1") {
				t.Errorf("article missing:\n%s", r.Markdown)
			}
		})
	}
}

// TestTextPrefixIndented checks that indentation does not use up the
// prefix that labels are looked for in.
func TestTextPrefixIndented(t *testing.T) {
	body := parseBody(t, "<html><body><p>"+strings.Repeat(" \n\t", 60)+"Read also: <a href=/x>Other story</a></p></body></html>")
	p := find(body, atom.P)
	if !isTeaser(p) {
		t.Errorf("indented teaser not recognized; prefix %q", textPrefix(p, 120))
	}
}

// TestTeaserCardInBody: when readability's result is a related-story
// card inside the article (the densest container, which holds it), the
// article is taken when it has cardFactor times the card's prose; a
// block of the article that is not short stays readability's choice.
func TestTeaserCardInBody(t *testing.T) {
	var body strings.Builder
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&body, `<div><p>Body paragraph %d of the long article, with commas, clauses, and enough words to be prose in every measure.</p></div>`, i)
	}
	b := body.String()
	cases := []struct {
		name, block string
		wantAlt     bool
	}{
		{"short card", `<div id="picked"><p>Another story entirely, about a different town and a different vote, worth a click.</p></div>`, true},
		{"long section", `<div id="picked">` + strings.Repeat(`<p>`+filler+filler+`</p>`, 2) + `</div>`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := `<html><body><article>` + b[:len(b)/2] + tc.block + b[len(b)/2:] + `</article></body></html>`
			root, err := html.Parse(strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			var picked *html.Node
			walkElements(root, func(n *html.Node) {
				if attrIs(n, "id", "picked") {
					picked = n
				}
			})
			dense, prose := densestContainer(find(root, atom.Body))
			got := alternative(dense, prose, picked)
			if (got != nil) != tc.wantAlt {
				t.Fatalf("alternative = %v, want the densest container: %v", got, tc.wantAlt)
			}
			if got != nil && got.DataAtom != atom.Article {
				t.Fatalf("alternative = <%s>, want <article>", got.Data)
			}
		})
	}
}

// TestInterfaceLabels: the interface text pruneInside removes wherever it
// stands, and sentences like it that stay.
func TestInterfaceLabels(t *testing.T) {
	cases := []struct {
		text string
		drop bool
	}{
		{"Social Share", true},
		{"Share this article", true},
		{"Kommentare schreiben", true},
		{"Lade weitere Inhalte ...", true},
		{"Load more", true},
		{"Lesezeit: 4 Minuten", true},
		{"5 min read", true},
		{"%d Bloggern gefällt das:", true},
		{"Externer Inhalt", true},
		{"Text vorlesen", true},
		{"Story continues below advertisement", true},
		{"Continue reading the main story", true},
		{"toggle caption", true},
		{"Loading...", true},
		{"Gift Article", true},
		{"37 views", true},
		{"Current Time 0:00", true},
		{"Watch video 02:17", true},
		{"Photo", true},
		{"Found This Helpful", true},
		{"Facebook", true},
		{"Comments (5 posted)", true},
		{"Gallery: Xbox One X | 14 Photos", true},
		{"$7/month", true},
		{"EXCLUSIVE", true},
		{"Powered by SmartAsset.com", true},
		{"The photo shows the harbour at dawn.", false},
		{"Sign up for our daily newsletter", true},
		{"Apply Now", true},
		{"37 views of the harbour", false},
		{"$199 at Amazon", true},
		{"Check price at Walmart", true},
		{"Buy now", true},
		{"Zum Angebot", true},
		{"The ticket costs $20 at the door and more online.", false},
		{"Scroll down for video", true},
		{"Supported by", true},
		{"Share prices fell on Friday.", false},
		{"Print media lost readers.", false},
		{"Leave a comment if you were there, the mayor wrote.", false},
		{"Lesezeit ist Lebenszeit", false},
	}
	for _, tc := range cases {
		checkPass(t, pruneInside, "<p>"+tc.text+"</p>", tc.drop)
	}
}

// TestInterfaceWordInText: a word of the interface vocabulary set in a
// sentence ("on <span>Twitter</span>") is a word, not a label.
func TestInterfaceWordInText(t *testing.T) {
	checkPass(t, pruneInside, `<p>Follow her on <a href="https://twitter.com/x"><span>Twitter</span></a> for more.</p>`, false)
}
