package extract

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func FuzzHTML(f *testing.F) {
	f.Add(page(`<p hidden>x</p><a href="../a">link</a>`), []byte("caf\xe9"))
	f.Add("<html><head><base href=//x/><title>t</title></head><body><p>text", []byte{0xFF, 0xFE, 'a', 0})
	f.Add("<table><tr><td>a<td>b</table><pre><code>x\n```\ny</code></pre>", []byte(`<meta charset=shift_jis>`))
	f.Add(strings.Repeat("<div>", 600)+"x", []byte("\xEF\xBB\xBFok"))
	f.Add("<svg><foreignObject><p>x</p></foreignObject></svg><math><mi>y</mi></math>", []byte(nil))
	base, _ := url.Parse("https://example.org/dir/page.html")
	f.Fuzz(func(t *testing.T, doc string, raw []byte) {
		s, err := Decode(raw, "")
		if err != nil || !utf8.ValidString(s) {
			t.Fatalf("Decode: %v, valid %v", err, utf8.ValidString(s))
		}
		start := time.Now()
		r, err := HTML(context.Background(), doc, base)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("took %v", d)
		}
		if err != nil {
			if !errors.Is(err, ErrNothing) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !utf8.ValidString(r.Markdown) || !utf8.ValidString(r.Title) {
			t.Fatal("invalid UTF-8")
		}
		if strings.TrimSpace(r.Markdown) == "" {
			t.Fatal("empty Markdown without ErrNothing")
		}
	})
}
