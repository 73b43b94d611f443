package extract

import (
	"strings"
	"testing"
)

// TestHiddenForms reproduces the attack of issue 15, point 5: text a
// browser does not show, written in each form a browser reads as hidden,
// must not reach the Markdown, while the article around it does.
func TestHiddenForms(t *testing.T) {
	hide := func(style string) string { return `<p style="` + style + `">SECRET1 text</p>` }
	tests := []struct{ name, snippet string }{
		// display:none written the ways a browser still reads it
		{"display with a comment in the value", hide("display:/**/none")},
		{"display with comments everywhere", hide("/* a */display/* b */:/* c */none/* d */")},
		{"display upper case, spaced, important", hide("COLOR:red; DISPLAY : NONE !IMPORTANT")},
		{"display important beats a later block", hide("display:none!important;display:block")},
		{"display after an invalid later value", hide("display:none; display:bogus")},
		{"display with an escaped keyword", hide(`display:n\6f ne`)},
		{"display with an escaped name", hide(`d\69 splay:none`)},
		{"display as character references", hide("display&#58;&#110;one")},
		{"display after a quoted semicolon", hide("font-family:'a;display:block'; display:none")},
		{"display after a semicolon in url()", hide("background:url(x.png?a=1;display=block);display:none")},
		// font-size
		{"font-size 0", hide("font-size:0")},
		{"font-size 0px", hide("font-size:0px")},
		{"font-size 0em", hide("font-size:0em")},
		{"font-size 0%", hide("font-size:0%")},
		{"font-size 0.0rem", hide("font-size:0.0rem")},
		{"font-size calc(0px)", hide("font-size:calc(0px)")},
		{"font-size below a pixel", hide("font-size:0.2px")},
		{"font-size 0 inherited by a span", `<div style="font-size:0"><span>SECRET1 text</span></div>`},
		{"font-size 0 under a relative size", `<div style="font-size:0"><span style="font-size:2em">SECRET1 text</span></div>`},
		// opacity
		{"opacity 0", hide("opacity:0")},
		{"opacity 0.0", hide("opacity:0.0")},
		{"opacity 0%", hide("opacity:0%")},
		{"opacity negative", hide("opacity:-1")},
		{"opacity 0 faded in by a transition", hide("opacity:0;transition:opacity .3s ease-in")},
		{"filter opacity 0", hide("filter:opacity(0)")},
		// off the page
		{"absolute left -9999px", hide("position:absolute;left:-9999px")},
		{"absolute top -9999px", hide("position:absolute; top:-9999px")},
		{"fixed left -100vw", hide("position:fixed;left:-100vw")},
		{"left -999em, position from a style sheet", hide("left:-999em")},
		{"inset shorthand", hide("position:absolute;inset:-9999px auto auto -9999px")},
		{"margin-left -9999px", hide("margin-left:-9999px")},
		{"text-indent -9999px", hide("text-indent:-9999px;overflow:hidden")},
		// clipped to nothing
		{"clip rect(0,0,0,0)", hide("position:absolute;clip:rect(0,0,0,0)")},
		{"clip rect(0 0 0 0)", hide("position:absolute;clip:rect(0 0 0 0)")},
		{"clip rect(1px,1px,1px,1px)", hide("position:absolute;clip:rect(1px, 1px, 1px, 1px);width:1px;height:1px")},
		{"clip-path inset(50%)", hide("clip-path: inset(50%)")},
		{"clip-path inset(0 0 100% 0)", hide("clip-path:inset(0 0 100% 0)")},
		{"clip-path circle(0)", hide("clip-path:circle(0)")},
		{"clip-path circle(0% at 50% 50%)", hide("clip-path:circle(0% at 50% 50%)")},
		{"clip-path ellipse with a zero radius", hide("clip-path:ellipse(0 20px)")},
		{"clip-path polygon on a line", hide("clip-path:polygon(0 0, 0 100%, 0 50%)")},
		// collapsed
		{"height 0 overflow hidden", `<div style="height:0;overflow:hidden"><p>SECRET1 text</p></div>`},
		{"width 0 overflow hidden", `<div style="width:0;overflow:hidden"><p>SECRET1 text</p></div>`},
		{"max-height 0 overflow-y hidden", `<div style="max-height:0px;overflow-y:hidden"><p>SECRET1 text</p></div>`},
		{"height 0 overflow-x hidden", `<div style="height:0;overflow-x:hidden"><p>SECRET1 text</p></div>`},
		// scaled to nothing
		{"transform scale(0)", hide("transform:scale(0)")},
		{"transform scaleY(0) after a rotation", hide("transform:rotate(5deg) scaleY(0)")},
		{"transform scale(1, 0)", hide("transform:scale(1, 0)")},
		{"transform singular matrix", hide("transform:matrix(1, 2, 2, 4, 0, 0)")},
		{"scale property 0", hide("scale:0")},
		// visibility and content-visibility
		{"visibility collapse", hide("visibility:collapse")},
		{"visibility hidden inherited", `<div style="visibility:hidden"><p><b>SECRET1</b> text <img src="/x.png" alt="SECRET1"></p></div>`},
		{"content-visibility hidden", `<div style="content-visibility:hidden"><p>SECRET1 text</p></div>`},
		// SVG
		{"svg desc", `<p>A figure <svg viewBox="0 0 10 10"><desc>SECRET1 text</desc><rect width="10" height="10"/></svg> here.</p>`},
		{"svg title", `<p>A figure <svg viewBox="0 0 10 10"><title>SECRET1 text</title><rect width="10" height="10"/></svg> here.</p>`},
		{"svg text with opacity 0", `<p>A figure <svg viewBox="0 0 10 10"><text opacity="0">SECRET1 text</text></svg> here.</p>`},
		{"svg text with display none", `<p>A figure <svg viewBox="0 0 10 10"><text display="none">SECRET1 text</text></svg> here.</p>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustHTML(t, page(tc.snippet), "https://example.org/a")
			if strings.Contains(r.Markdown, "SECRET1") {
				t.Errorf("hidden text in output:\n%s", r.Markdown)
			}
			if !strings.Contains(r.Markdown, "real article text") {
				t.Errorf("article missing:\n%s", r.Markdown)
			}
		})
	}
}

// TestHiddenRemOfZeroRoot: rem refers to the root's font size, so a
// root of size 0 makes 1rem nothing, while a size in pixels is seen.
func TestHiddenRemOfZeroRoot(t *testing.T) {
	doc := strings.Replace(page(`<p style="font-size:1rem">SECRET1 text</p>`), "<html>", `<html style="font-size:0">`, 1)
	doc = strings.Replace(doc, "<body>", `<body style="font-size:16px">`, 1)
	r := mustHTML(t, doc, "https://example.org/a")
	if strings.Contains(r.Markdown, "SECRET1") || !strings.Contains(r.Markdown, "real article text") {
		t.Errorf("want the article without SECRET1:\n%s", r.Markdown)
	}
}

// TestHiddenLookAlikes: styles that look like hiding but leave the text
// on screen keep it.
func TestHiddenLookAlikes(t *testing.T) {
	keep := func(style string) string { return `<p style="` + style + `">KEPT1 text</p>` }
	tests := []struct{ name, snippet string }{
		{"display none commented out", keep("color:red; /* display:none */")},
		{"display none inside a string", keep("font-family:'display:none'")},
		{"display split by a comment", keep("display:no/**/ne")},
		{"display none then block", keep("display:none;display:block")},
		{"display with a no-break space", keep("display:\u00a0none")},
		{"hidden attribute displayed by style", `<p hidden style="display:block">KEPT1 text</p>`},
		{"font-size 0 container, children sized (inline-block gaps)", `<div style="font-size:0"><span style="display:inline-block;font-size:16px">KEPT1 text</span> <span style="display:inline-block;font-size:1rem">KEPT2 text</span></div>`},
		{"font-size small but readable", keep("font-size:0.8em")},
		{"visible child of a hidden parent", `<div style="visibility:hidden"><p style="visibility:visible">KEPT1 text</p></div>`},
		{"opacity half", keep("opacity:.5")},
		{"a small negative offset", keep("position:relative;left:-20px")},
		{"an offset on a static element", keep("position:static;left:-9999px")},
		{"sticky top threshold", keep("position:sticky;top:-9999px")},
		{"clip on a relative element", keep("position:relative;clip:rect(0,0,0,0)")},
		{"clip auto", keep("position:absolute;clip:auto")},
		{"clip-path inset(10%)", keep("clip-path:inset(10%)")},
		{"height 0 without overflow", `<div style="height:0"><p>KEPT1 text</p></div>`},
		{"height 0 with padding, a video frame", `<div style="height:0;padding-bottom:56.25%;overflow:hidden"><p>KEPT1 text</p></div>`},
		{"height 0% in an auto parent", `<div style="height:0%;overflow:hidden"><p>KEPT1 text</p></div>`},
		{"transform on an inline box", `<p>x <span style="display:inline;transform:scale(0)">KEPT1 text</span></p>`},
		{"transform scale(1)", keep("transform:scale(1) rotate(2deg)")},
		{"opacity on display contents", `<div style="display:contents;opacity:0"><p>KEPT1 text</p></div>`},
		{"text-indent on an inline box", `<p>x <span style="display:inline;text-indent:-9999px">KEPT1 text</span></p>`},
		{"svg text", `<p>A figure <svg viewBox="0 0 10 10"><text x="0" y="5">KEPT1 text</text></svg> here.</p>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustHTML(t, page(tc.snippet), "https://example.org/a")
			for _, want := range []string{"KEPT1", "real article text"} {
				if !strings.Contains(r.Markdown, want) {
					t.Errorf("%s missing:\n%s", want, r.Markdown)
				}
			}
			if strings.Contains(tc.snippet, "KEPT2") && !strings.Contains(r.Markdown, "KEPT2") {
				t.Errorf("KEPT2 missing:\n%s", r.Markdown)
			}
		})
	}
}

// TestSVGTitleNotPageTitle: a page without a <title> does not take an SVG
// drawing's tooltip as its title.
func TestSVGTitleNotPageTitle(t *testing.T) {
	doc := `<html><body><svg><title>SECRET1 tooltip</title></svg><article><p>` + strings.Repeat(filler, 3) + `</p></article></body></html>`
	r := mustHTML(t, doc, "https://example.org/a")
	if strings.Contains(r.Title, "SECRET1") || strings.Contains(r.Markdown, "SECRET1") {
		t.Errorf("title %q, Markdown:\n%s", r.Title, r.Markdown)
	}
}
