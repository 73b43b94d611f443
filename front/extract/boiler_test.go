package extract

import (
	"strings"
	"testing"
)

func TestBoilerplateRemoved(t *testing.T) {
	cases := map[string]string{
		"share bar":      `<div class="social-links"><p>BOILER1 share on Facebook</p></div>`,
		"newsletter":     `<div id="newsletter-signup"><p>BOILER1 get our newsletter every morning</p></div>`,
		"related posts":  `<section class="content-related-stories"><h3>BOILER1 related</h3><ul><li><a href="/x">Other story</a></li></ul></section>`,
		"ad part":        `<div class="proper-ad-unit"><p>BOILER1 Advertisement</p></div>`,
		"paywall":        `<div class="paywall-box"><p>BOILER1 subscribe to read the full story</p></div>`,
		"read also":      `<p>Read also: <a href="/other">BOILER1 another story</a></p>`,
		"lea también":    `<p>Lea también: <a href="/otra">BOILER1 otra noticia</a></p>`,
		"comments by id": `<div id="comments"><p>BOILER1 Leave a comment</p></div>`,
	}
	for name, snippet := range cases {
		t.Run(name, func(t *testing.T) {
			r := mustHTML(t, page(snippet), "https://example.org/a")
			if strings.Contains(r.Markdown, "BOILER1") {
				t.Errorf("boilerplate in output:\n%s", r.Markdown)
			}
			if !strings.Contains(r.Markdown, "real article text") {
				t.Errorf("article missing:\n%s", r.Markdown)
			}
		})
	}
}

func TestBoilerplateKept(t *testing.T) {
	cases := map[string]string{
		// names that only look like boilerplate
		"ad in a word":    `<div class="adaptive-loading"><p>KEPT1 ` + filler + `</p></div>`,
		"taxonomy class":  `<div class="post tag-promo category-newsletter"><p>KEPT1 ` + filler + `</p></div>`,
		"bem modifier":    `<section class="report__section--ads"><p>KEPT1 ` + filler + `</p></section>`,
		"shared in id":    `<div class="section" id="a-shared-history"><p>KEPT1 ` + filler + `</p></div>`,
		"inline span":     `<p>By <span class="ad">KEPT1 Jane Doe</span>, staff writer. ` + filler + `</p>`,
		"teaser too long": `<p>Read more: KEPT1 ` + strings.Repeat(filler, 3) + `</p>`,
	}
	for name, snippet := range cases {
		t.Run(name, func(t *testing.T) {
			r := mustHTML(t, page(snippet), "https://example.org/a")
			if !strings.Contains(r.Markdown, "KEPT1") {
				t.Errorf("content removed:\n%s", r.Markdown)
			}
		})
	}
	// a boilerplate-named wrapper around most of the page's text stays
	doc := "<html><body><div class=\"article-share-wrapper\"><p>" + strings.Repeat(filler, 8) + "</p></div><p>short</p></body></html>"
	r := mustHTML(t, doc, "https://example.org/a")
	if !strings.Contains(r.Markdown, "real article text") {
		t.Errorf("wrapper removed:\n%s", r.Markdown)
	}
}
