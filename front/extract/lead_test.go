package extract

import (
	"strings"
	"testing"
)

// opening is a lead of two sentences: an opening paragraph, not a
// subtitle.
const opening = "LEAD1 The council voted to close the old bridge after engineers found cracks. Ferries will run from the old pier until a new bridge opens, in two years at the earliest."

// TestLeadRecovered: a standfirst set apart in the article's header is put
// in front of readability's content.
func TestLeadRecovered(t *testing.T) {
	cases := []struct{ name, header string }{
		{"lead class", `<header><h1>Title</h1><p class="article-lead">` + opening + `</p></header>`},
		{"dek heading", `<header><h1>Title</h1><h2 class="story__dek">` + opening + `</h2></header>`},
		{"itemprop description", `<h1>Title</h1><div><span itemprop="description">` + opening + `</span></div>`},
		{"BEM intro copy", `<div class="c-page-intro"><h1>Title</h1><div class="c-page-intro__copy">` + opening + `</div></div>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustHTML(t, story(tc.header, "", ""), "https://example.org/a")
			i := strings.Index(r.Markdown, "LEAD1")
			if i < 0 || i > strings.Index(r.Markdown, "real article text") {
				t.Errorf("lead missing or misplaced:\n%s", r.Markdown)
			}
			if strings.Count(r.Markdown, "LEAD1") != 1 {
				t.Errorf("lead repeated:\n%s", r.Markdown)
			}
		})
	}
}

// TestLeadNotRecovered: elements named like a lead that are not this
// article's lead stay out.
func TestLeadNotRecovered(t *testing.T) {
	cases := []struct{ name, header string }{
		{"image description", `<header><h1>Title</h1><div class="img_description">NOTLEAD1 The old bridge seen from the river bank at dusk.</div></header>`},
		{"aside teaser", `<header><h1>Title</h1></header><aside><div class="teaser">NOTLEAD1 Another story: the mayor on the city budget for next year.</div></aside>`},
		{"author bio", `<header><h1>Title</h1><div class="author-description">NOTLEAD1 Jane Doe covers city hall and transport for the paper.</div></header>`},
		{"one-line deck", `<header><h1>Title</h1><h2 class="story__dek">NOTLEAD1 The council voted to close the old bridge after engineers found cracks.</h2></header>`},
		{"teaser list", `<header><h1>Title</h1><div class="teaser"><ul><li>NOTLEAD1 One other story of the day here</li><li>Two</li></ul></div></header>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustHTML(t, story(tc.header, "", ""), "https://example.org/a")
			if strings.Contains(r.Markdown, "NOTLEAD1") {
				t.Errorf("not a lead, but in output:\n%s", r.Markdown)
			}
		})
	}
	// outside the article that holds the content
	doc := strings.Replace(story("<h1>Title</h1>", "", ""), "<article>",
		`<div class="summary">NOTLEAD1 A summary of something else entirely on this page.</div><article>`, 1)
	if r := mustHTML(t, doc, "https://example.org/a"); strings.Contains(r.Markdown, "NOTLEAD1") {
		t.Errorf("lead from outside the article:\n%s", r.Markdown)
	}
}
