package htmlparse

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// tricky are documents whose trees exercise the parser's hard parts:
// misnested formatting (the adoption agency), reconstruction, foster
// parenting, tables, templates, foreign content, framesets, comments and
// text outside the body, and the joining of text runs.
var tricky = []string{
	"",
	"plain text",
	"<!doctype html><html><head><title>t</title></head><body><p>a<b>b<i>c</b>d</i>e</p></body></html>",
	"<b>1<p>2</b>3</p>",
	"<a href=x>1<div>2<a href=y>3</a>4</div>5</a>",
	"<b id=1><b id=2><b id=3><b id=4><p>x<p>y<p>z",
	"<b><b><b><b><b><p>x</p><p>y</p>",
	"<table><tr><td>a<b>b</td><td>c</table>d",
	"<table>x<tr>y<td>z</td></tr>w</table>",
	"<table><b>x</b><tr><td>a</td></tr></table>",
	"<template><tr><td>a</td></tr></template><p>b",
	"<svg><desc>d</desc><foreignObject><p>x</p></foreignObject><path/></svg>",
	"<math><mi>x</mi><annotation-xml encoding=text/html><p>y</p></annotation-xml></math>",
	"<frameset><frame><!--c--></frameset><!--d-->",
	"<html a=1><body b=2><html c=3><body d=4 b=5>x",
	"<p>x</p></body><!--after-->y</html><!--end-->z",
	"a</x>b</x>c</x>d<html>e<html>f",
	"<table>a</x>b</x>c<tr><td>d</table>",
	"<select><option>a<option>b</select><i>c",
	"<ul><li>a<li>b<ol><li>c</ul>d",
	"<p><b><i><u><s>x</p><p><b><i><u><s>y</p>",
	"<div><nobr>a<nobr>b</nobr>c</div>",
	"<font color=red><p>a</font>b",
	"<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\"><p>q",
	"<textarea>\n<b>x</textarea><script>var a='<p>';</script><style>p{}</style>",
	"x\x00y<p>\x00",
	"<a><table><a>x</table></a>",
	"<marquee><b>a</marquee>b<object><i>c</object>d",
	"<button><p>a</button>b",
	"<h1>a<h2>b</h1>c",
	"<body><form><form><input></form>x",
	"<p>&amp;&lt;&gt;&quot;&#39;&#x41;&copy;&notanentity;",
}

func render(t testing.TB, n *html.Node) string {
	t.Helper()
	var b strings.Builder
	if err := html.Render(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSameTreeAsUpstream: without a budget, the tree is html.Parse's.
func TestSameTreeAsUpstream(t *testing.T) {
	docs := append([]string{}, tricky...)
	docs = append(docs, strings.Repeat("<p>a</p>", 1000), strings.Join(tricky, ""))
	for i, doc := range docs {
		want, werr := html.Parse(strings.NewReader(doc))
		got, cut, err := Parse(context.Background(), strings.NewReader(doc), 0)
		if (err != nil) != (werr != nil) {
			t.Fatalf("doc %d: error %v, upstream %v", i, err, werr)
		}
		if err != nil {
			continue
		}
		if cut {
			t.Errorf("doc %d: cut without a budget", i)
		}
		if g, w := render(t, got), render(t, want); g != w {
			t.Errorf("doc %d %.60q:\n got %q\nwant %q", i, doc, g, w)
		}
	}
}

// TestTooDeep: nesting past 512 elements is refused, as upstream.
func TestTooDeep(t *testing.T) {
	if _, _, err := Parse(context.Background(), strings.NewReader(strings.Repeat("<div>", 600)), 0); err == nil {
		t.Fatal("600 nested divs parsed")
	}
}

// TestUpstreamVersion: the copied parser is x/net's at the version go.mod
// requires; a move of go.mod must bring the copy along.
func TestUpstreamVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "golang.org/x/net" {
			if f[1] != upstream {
				t.Fatalf("go.mod requires golang.org/x/net %s, the parser is a copy of %s: copy parse.go, foreign.go, doctype.go, const.go and node.go's parts again and re-apply the changes marked rypsok: (doc.go)", f[1], upstream)
			}
			return
		}
	}
	t.Fatal("golang.org/x/net is not in go.mod")
}

// cost is the budget the tree of n takes, counted as Parse counts.
func cost(n *html.Node) int {
	c := 0
	for d := range n.Descendants() {
		c += NodeBytes + len(d.Data)
		for _, a := range d.Attr {
			c += AttrBytes + len(a.Key) + len(a.Val)
		}
	}
	return c
}

// hostile are the shapes of the attack on the front: each repeats a unit
// to about size bytes.
func hostile(size int) map[string]string {
	rep := func(prefix, unit string) string {
		return prefix + strings.Repeat(unit, (size-len(prefix))/len(unit))
	}
	// Formatting elements closed by the paragraph around them stay in the
	// list of active formatting elements, and each later paragraph reopens
	// every one of them: nodes quadratic in the input.
	var open, htmlAttrs strings.Builder
	for i := range 500 { // under the 512 open elements the parser takes
		fmt.Fprintf(&open, "<p><b id=%d></p>", i)
	}
	for i := 0; htmlAttrs.Len() < size; i++ {
		fmt.Fprintf(&htmlAttrs, "<html a%d>", i)
	}
	return map[string]string{
		"paragraphs":      rep("<body>", "<p>a</p>"),
		"formatting":      rep("<body>", "<p><b><i><u><s>x</p>"),
		"open formatting": open.String() + rep("", "<p>x</p>"),
		"attributes":      rep("<body>", "<i a b c d e f g h j k l m n o q r t v w y z>x</i>"),
		"html attributes": htmlAttrs.String(),
		"entities":        rep("<body><p>", "&amp;&lt;&gt;&quot;&#39;&#x41;&copy;"),
		"cells":           rep("<table>", "<td>x"),
		"comments":        rep("</html>", "<!---->"),
		"text runs":       rep("<body>", "a</x>"),
	}
}

// TestBudget: whatever the shape, the tree stays near the budget, and a
// tree that reached it is reported cut.
func TestBudget(t *testing.T) {
	const budget = 4 << 20
	for name, doc := range hostile(2 << 20) {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			root, cut, err := Parse(context.Background(), strings.NewReader(doc), budget)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			// Linear work: what the parse allocates, garbage included, is a
			// small multiple of its input and budget (tokens are copied
			// once, nodes built once).
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(8*(len(doc)+budget)) {
				t.Errorf("parse allocated %d MB for %d KB of input", alloc>>20, len(doc)>>10)
			}
			c := cost(root)
			// One token may add a few nodes after the budget is reached.
			if c > budget+64*NodeBytes {
				t.Errorf("tree costs %d, budget %d", c, budget)
			}
			if c > budget && !cut {
				t.Errorf("tree costs %d > budget %d, not reported cut", c, budget)
			}
			t.Logf("cost %d, cut %v", c, cut)
		})
	}
}

// TestTextRunsLinear: text runs that all join one node (between ignored
// end tags) cost memory linear in their number; upstream's concatenation
// allocated the whole text again for each run.
func TestTextRunsLinear(t *testing.T) {
	doc := "<body>" + strings.Repeat("a</x>", 200_000) // 1 MB, 200,000 runs
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	root, _, err := Parse(context.Background(), strings.NewReader(doc), 0)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, root); !strings.Contains(got, strings.Repeat("a", 200_000)) {
		t.Fatalf("text not joined: %.80q", got)
	}
	// Quadratic joining allocates about 200,000^2/2 = 20 GB here.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("parsing allocated %d MB", alloc>>20)
	}
}

// TestCancelled: a parse whose context ended stops with its error.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Parse(ctx, strings.NewReader(strings.Repeat("<p>a</p>", 10_000)), 0)
	if err != context.Canceled {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}
