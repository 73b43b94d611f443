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
		"comment form":   `<div class="comment-respond"><form><p>BOILER1 You are not logged in.</p></form><div class="comment-policy">policy</div></div>`,
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
		// "Related:" labels a teaser only over a link (inbody.go)
		"related label over text": `<p>Related: KEPT1 the council's earlier vote, in March.</p>`,
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

// TestCommentThread: removeBoilerplate leaves a comment thread to
// readability (Readability.js keeps the thread of a WordPress blog that
// sits in the article's container) and removes comment forms and notices.
func TestCommentThread(t *testing.T) {
	cases := []struct {
		name, html string
		kept       bool
	}{
		{"thread", `<section id="comments"><h3>2 comments</h3><ol class="comment-list"><li class="comment"><p>KEPT1 ` + filler + `</p></li><li class="comment"><p>` + filler + `</p></li></ol></section>`, true},
		{"one comment", `<section id="comments"><ol class="comment-list"><li class="comment"><p>KEPT1 ` + filler + `</p></li></ol></section>`, false},
		{"form", `<div class="comment-respond"><form><p>KEPT1 You are not logged in.</p></form></div>`, false},
		{"policy", `<div id="comments"><p>KEPT1 Please keep the discussion civil.</p></div>`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := parseBody(t, `<html><body><article><p>`+strings.Repeat(filler, 20)+`</p>`+tc.html+`</article></body></html>`)
			removeBoilerplate(body, visibleLen(body), true)
			if got := strings.Contains(textOf(body), "KEPT1"); got != tc.kept {
				t.Errorf("kept %v, want %v", got, tc.kept)
			}
		})
	}
}

// TestLinkDenseBoilerplateAfterReadability: before readability, a
// boilerplate-named list of links (related stories) stays for readability
// to judge, as its links lower the score of the container it sits in;
// taken out first, readability climbed above MSN's article and took in the
// page's furniture. On readability's result it goes. Text-heavy
// boilerplate goes in both passes.
func TestLinkDenseBoilerplateAfterReadability(t *testing.T) {
	var related strings.Builder
	for i := 0; i < 6; i++ {
		related.WriteString(`<li><a href="/s">LINKS1 A sponsored story you may like</a></li>`)
	}
	doc := `<html><body><article><p>` + strings.Repeat(filler, 20) + `</p>` +
		`<div class="related-stories"><ul>` + related.String() + `</ul></div>` +
		`<div class="share-tools"><p>TEXT1 Share this story with your friends and family today.</p></div>` +
		`</article></body></html>`
	for _, tc := range []struct {
		before bool
		links  bool
	}{{before: true, links: true}, {before: false, links: false}} {
		body := parseBody(t, doc)
		removeBoilerplate(body, visibleLen(body), tc.before)
		text := textOf(body)
		if got := strings.Contains(text, "LINKS1"); got != tc.links {
			t.Errorf("before=%v: link list kept %v, want %v", tc.before, got, tc.links)
		}
		if strings.Contains(text, "TEXT1") {
			t.Errorf("before=%v: share box kept", tc.before)
		}
	}
}
