package extract

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestScriptRendered: an application shell with nothing readable is
// ErrScriptRendered (which is also ErrNothing); a page with scripts and
// an article, or a shell whose server rendered the article, is read.
func TestScriptRendered(t *testing.T) {
	article := "<article><h1>Title</h1><p>" + strings.Repeat(filler, 3) + "</p></article>"
	cases := []struct {
		name, body string
		want       error // nil: extracted
	}{
		{"empty root div", `<div id="root"></div><script src="/main.js"></script>`, ErrScriptRendered},
		{"next.js mount with inline data", `<div id="__next"><script>self.__data=1</script></div><script src="/_next/app.js"></script>`, ErrScriptRendered},
		{"custom element mount", `<app-root></app-root><script src="/main.js"></script>`, ErrScriptRendered},
		{"noscript request and loading line", `<noscript>You need to enable JavaScript to run this app.</noscript><div id="app">Loading…</div><script src="/app.js"></script>`, ErrScriptRendered},
		{"visible request to enable JavaScript", `<div id="root"><p>Please enable JavaScript in your browser.</p></div><script src="/b.js"></script>`, ErrScriptRendered},
		{"empty page without scripts", `<div></div>`, ErrNothing},
		{"server-rendered app", `<div id="root">` + article + `</div><script src="/main.js"></script>`, nil},
		{"article with analytics script", article + `<script src="/analytics.js"></script>`, nil},
		{"article with a noscript tracking pixel", article + `<noscript><img src="/px.gif"></noscript><script>track()</script>`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := "<!doctype html><html><head><title>App</title></head><body>" + tc.body + "</body></html>"
			r, err := HTML(context.Background(), doc, nil)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("HTML: %v", err)
			case tc.want == nil && !strings.Contains(r.Markdown, "real article text"):
				t.Fatalf("article missing:\n%s", r.Markdown)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("err = %v, want %v (content %q)", err, tc.want, r.Markdown)
			case tc.want == ErrNothing && errors.Is(err, ErrScriptRendered):
				t.Fatalf("err = %v, want plain ErrNothing", err)
			}
			if errors.Is(err, ErrScriptRendered) && !errors.Is(err, ErrNothing) {
				t.Fatal("ErrScriptRendered must wrap ErrNothing")
			}
		})
	}
}
