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
	f.Add(`<div style="font-size:0"><span style="font-size:1em">a</span><p style="display:/**/n\6f ne!important;x:'a;b'">b</p><p style="position:absolute;clip:rect(0 0 0 0)">c</p></div><svg><desc>d</desc><text opacity="0">e</text></svg>`, []byte(nil))
	f.Add(`<div style="visibility:hidden"><p style="visibility:visible">a</p><img src=x></div><script type="application/ld+json">{"articleBody":"a"}</script>`, []byte(nil))
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

// FuzzParseDecls: any style attribute parses into declarations with a
// property name and a trimmed, collapsed value, and reading it as a style
// neither panics nor depends on anything but the attribute.
func FuzzParseDecls(f *testing.F) {
	for _, seed := range []string{
		"display:none", `/* a */DISPLAY : n\6f ne ! important; x:'a;b'`, "content:'a\n;b", "clip:rect(0,0,0,0)",
		"transform:matrix3d(1,0,0,0,0,0,0,0,0,0,1,0,0,0,0,1) scale(0)", "clip-path:polygon(evenodd,0 0,0 0)",
		"font-size:calc(0px);margin:-1e9px", `\`, "/*", "a:b(c;d", "inset:-9999px auto",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, style string) {
		for _, d := range parseDecls(style) {
			if !identLike(d.prop) || d.value == "" || strings.Trim(d.value, cssSpace) != d.value || strings.Contains(d.value, "  ") {
				t.Fatalf("parseDecls(%q): bad declaration %+v", style, d)
			}
		}
		n := styled(style)
		if a, b := styleOf(n), styleOf(n); a != b {
			t.Fatalf("styleOf(%q) not deterministic: %+v, %+v", style, a, b)
		}
	})
}
