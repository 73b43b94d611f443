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

func TestDecode(t *testing.T) {
	latin := []byte("<p>caf\xe9 na\xefve</p>")
	sjis := append([]byte(`<html><head><meta charset="Shift_JIS"></head><body><p>`), 0x93, 0xfa, 0x96, 0x7b) // 日本
	sjis = append(sjis, []byte("</p></body></html>")...)
	utf16le := []byte{0xFF, 0xFE, '<', 0, 'p', 0, '>', 0, 0xE9, 0, '<', 0, '/', 0, 'p', 0, '>', 0}
	utf16be := []byte{0xFE, 0xFF, 0, '<', 0, 'p', 0, '>', 0, 0xE9, 0, '<', 0, '/', 0, 'p', 0, '>'}
	late := []byte("<html><head>" + strings.Repeat("<!-- padding -->", 100) + `<meta charset="iso-8859-2"></head><body>` + "\xb1</body></html>")
	tests := []struct {
		name, ct string
		body     []byte
		want     string
	}{
		{"header charset", "text/html; charset=ISO-8859-1", latin, "<p>café naïve</p>"},
		{"header beats meta", "text/html; charset=windows-1252", []byte("<meta charset=utf-8><p>\xe9</p>"), "<meta charset=utf-8><p>é</p>"},
		{"utf-8 BOM", "", []byte("\xEF\xBB\xBF<p>é</p>"), "<p>é</p>"},
		{"utf-8 BOM beats header", "text/html; charset=iso-8859-1", []byte("\xEF\xBB\xBF<p>é</p>"), "<p>é</p>"},
		{"utf-16le BOM", "", utf16le, "<p>é</p>"},
		{"utf-16be BOM", "", utf16be, "<p>é</p>"},
		{"valid utf-8 undeclared", "text/html", []byte("<p>Grüße 日本</p>"), "<p>Grüße 日本</p>"},
		{"valid utf-8 beats wrong meta", "", []byte(`<meta charset="iso-8859-1"><p>Grüße</p>`), `<meta charset="iso-8859-1"><p>Grüße</p>`},
		{"meta Shift_JIS", "", sjis, `<html><head><meta charset="Shift_JIS"></head><body><p>日本</p></body></html>`},
		{"meta http-equiv iso-8859-1", "", []byte(`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>caf` + "\xe9</p>"), `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>café</p>`},
		{"late meta", "", late, strings.Replace(string(late), "\xb1", "ą", 1)},
		{"undeclared invalid utf-8", "", []byte("<p>\x93quoted\x94 caf\xe9</p>"), "<p>“quoted” café</p>"},
		{"unknown header charset ignored", "text/html; charset=bogus", []byte("<p>é</p>"), "<p>é</p>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(tc.body, tc.ct)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Error("not valid UTF-8")
			}
		})
	}
}

const filler = "This paragraph is the real article text, long enough for readability to score it well and keep it in the output. "

func page(body string) string {
	return "<!doctype html><html><head><title>The Title</title></head><body><article><h1>Heading</h1><p>" +
		strings.Repeat(filler, 4) + "</p>" + body + "<p>" + strings.Repeat(filler, 3) + "</p></article></body></html>"
}

func mustHTML(t *testing.T, doc, base string) Result {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	r, err := HTML(context.Background(), doc, u)
	if err != nil {
		t.Fatalf("HTML: %v", err)
	}
	return r
}

func TestHiddenExcluded(t *testing.T) {
	cases := map[string]string{
		"hidden attribute":   `<p hidden>SECRET1 text</p>`,
		"aria-hidden":        `<div aria-hidden="true"><p>SECRET1 text</p></div>`,
		"display none":       `<p style="color:red; display : none">SECRET1 text</p>`,
		"visibility hidden":  `<p style="visibility:hidden">SECRET1 text</p>`,
		"template":           `<template><p>SECRET1 text</p></template>`,
		"script":             `<script>var x = "SECRET1";</script>`,
		"style":              `<style>.SECRET1{}</style>`,
		"noscript":           `<noscript><p>SECRET1 text</p></noscript>`,
		"iframe":             `<iframe srcdoc="SECRET1">SECRET1</iframe>`,
		"closed dialog":      `<dialog><p>SECRET1 text</p></dialog>`,
		"comment":            `<!-- SECRET1 -->`,
		"script in head":     ``,
		"nested under hidde": `<div hidden><div><p>SECRET1 ` + strings.Repeat(filler, 5) + `</p></div></div>`,
	}
	for name, snippet := range cases {
		t.Run(name, func(t *testing.T) {
			doc := page(snippet)
			if name == "script in head" {
				doc = strings.Replace(doc, "</head>", "<script>document.write('SECRET1')</script></head>", 1)
			}
			r := mustHTML(t, doc, "https://example.org/a")
			if strings.Contains(r.Markdown, "SECRET1") {
				t.Errorf("hidden content in output:\n%s", r.Markdown)
			}
			if !strings.Contains(r.Markdown, "real article text") {
				t.Errorf("article missing:\n%s", r.Markdown)
			}
		})
	}
	// visible variants are kept; so is the picture of a formula whose
	// MathML is hidden (Wikipedia), which is what the browser shows
	r := mustHTML(t, page(`<p style="display:block">KEPT1 text</p><p aria-hidden="false">KEPT2 text</p>`+
		`<p>KEPT3 the product <span style="display: none;"><math><mi>SECRET1</mi></math></span>`+
		`<img class="mwe-math-fallback-image-inline" aria-hidden="true" src="/f.svg" alt="KEPT4"> is real.</p>`), "https://example.org/a")
	if strings.Contains(r.Markdown, "SECRET1") {
		t.Errorf("hidden MathML in output:\n%s", r.Markdown)
	}
	for _, s := range []string{"KEPT1", "KEPT2", "KEPT3", "KEPT4"} {
		if !strings.Contains(r.Markdown, s) {
			t.Errorf("%s missing:\n%s", s, r.Markdown)
		}
	}
}

func TestLinksAbsolute(t *testing.T) {
	tests := []struct {
		name, head, base, want string
	}{
		{"relative", "", "https://example.org/dir/page.html", "](https://example.org/dir/other.html)"},
		{"base href absolute", `<base href="https://cdn.example.net/root/">`, "https://example.org/dir/page.html", "](https://cdn.example.net/root/other.html)"},
		{"base href relative", `<base href="/sub/">`, "https://example.org/dir/page.html", "](https://example.org/sub/other.html)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(page(`<p>See <a href="other.html">the other page</a> and <a href="javascript:alert(1)">this</a> for more. `+filler+`</p>`), "<head>", "<head>"+tc.head, 1)
			r := mustHTML(t, doc, tc.base)
			if !strings.Contains(r.Markdown, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, r.Markdown)
			}
			if strings.Contains(r.Markdown, "javascript:") {
				t.Errorf("javascript: link kept:\n%s", r.Markdown)
			}
		})
	}
}

func TestStructure(t *testing.T) {
	r := mustHTML(t, page(`<pre><code class="language-go">func main() {
	fmt.Println("hi")
}</code></pre><table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>alpha</td><td>1</td></tr><tr><td>beta</td><td>2</td></tr></tbody></table><ul><li>first item</li><li>second item</li></ul>`), "https://example.org/")
	for _, want := range []string{"```", "fmt.Println(\"hi\")", "| Name", "| alpha", "- first item", "# Heading"} {
		if !strings.Contains(r.Markdown, want) {
			t.Errorf("want %q in:\n%s", want, r.Markdown)
		}
	}
	if r.Title != "The Title" {
		t.Errorf("title %q", r.Title)
	}
	if r.Partial {
		t.Error("a clean page is not partial")
	}
	if strings.Contains(r.Markdown, "\n\n\n") || r.Markdown != strings.TrimSpace(r.Markdown) {
		t.Error("blank lines not collapsed or not trimmed")
	}
}

func TestNothing(t *testing.T) {
	for name, doc := range map[string]string{
		"empty":          "",
		"no text":        "<html><head><title>T</title></head><body><img src=a.png></body></html>",
		"only hidden":    `<html><body><div hidden>text</div><script>x()</script></body></html>`,
		"only spaces":    "<p> \n\t </p>",
		"binary-ish\x00": "\x00\x01\x02",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := HTML(context.Background(), doc, nil); !errors.Is(err, ErrNothing) {
				t.Errorf("err = %v, want ErrNothing", err)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	doc := "<html><body><div><p>" + strings.Repeat(filler, 3) + "<p><b>Unclosed bold <i>and italic " + strings.Repeat(filler, 2) + "<table><tr><td>cell text<div>stray</span></em>" + strings.Repeat(filler, 2)
	r := mustHTML(t, doc, "https://example.org/")
	if !strings.Contains(r.Markdown, "Unclosed bold") || !strings.Contains(r.Markdown, "real article text") {
		t.Errorf("content lost:\n%s", r.Markdown)
	}
	// A short page with unclosed tags still gives its text.
	r = mustHTML(t, "<body><main><div><span>Short note</span> with <b>unclosed", "https://example.org/")
	if !strings.Contains(r.Markdown, "Short note with **unclosed**") {
		t.Errorf("partial=%v:\n%s", r.Partial, r.Markdown)
	}
}

func TestNestingBomb(t *testing.T) {
	for name, doc := range map[string]string{
		"divs":    strings.Repeat("<div>", 100_000) + "deep text" + strings.Repeat("</div>", 100_000),
		"spans":   "<p>" + strings.Repeat("<span>x ", 50_000),
		"formats": strings.Repeat("<b><i><u>", 20_000) + "text",
		"many":    strings.Repeat("<p>a</p>", 600_000),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r, err := HTML(context.Background(), doc, nil)
			if err != nil && !errors.Is(err, ErrNothing) {
				t.Fatal(err)
			}
			if d := time.Since(start); d > raceSlowdown*30*time.Second { // about 2.5 s on a quiet machine
				t.Errorf("took %v", d)
			}
			if err == nil && !utf8.ValidString(r.Markdown) {
				t.Error("invalid UTF-8")
			}
		})
	}
}

func TestBound(t *testing.T) {
	doc := "<p>" + strings.Repeat(filler, 3) + "</p>" + strings.Repeat("<div>", 2000) + "deep text" + strings.Repeat("</div>", 2000)
	r, err := HTML(context.Background(), doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || !strings.Contains(r.Markdown, "deep text") || !strings.Contains(r.Markdown, "real article") {
		t.Errorf("partial=%v:\n%.300s", r.Partial, r.Markdown)
	}
}

// TestDropCap: a first letter set apart before the first paragraph is put
// back into its word; a capital before a paragraph that starts a sentence
// stays where it is.
func TestDropCap(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"span before the paragraph", `<span class="dropcap">T</span><p>he council KEPT1 voted. ` + filler + `</p>`, "The council KEPT1"},
		{"inside a link", `<span>T</span><p><a href="/t">urkey</a>, KEPT1 Poland. ` + filler + `</p>`, "[Turkey](https://example.org/t), KEPT1"},
		{"not a drop cap", `<p><b>A</b></p><p>KEPT1 Then the council voted. ` + filler + `</p>`, "**A**\n\nKEPT1 Then"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustHTML(t, page(tc.body+"<p>"+strings.Repeat(filler, 3)+"</p>"), "https://example.org/a")
			if !strings.Contains(r.Markdown, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, r.Markdown)
			}
		})
	}
}
