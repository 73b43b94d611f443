package extract

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestParseDecls(t *testing.T) {
	tests := []struct {
		name, style string
		want        []decl
	}{
		{"one", "display:none", []decl{{"display", "none", false}}},
		{"spaces, case, trailing semicolon", "  Display : NONE ; ", []decl{{"display", "none", false}}},
		{"comment in the value", "display:/**/none", []decl{{"display", "none", false}}},
		{"comment splits a keyword", "display:no/**/ne", []decl{{"display", "no ne", false}}},
		{"comment splits a name", "dis/**/play:none", nil},
		{"unclosed comment", "color:red; /* display:none", []decl{{"color", "red", false}}},
		{"important", "display:none ! IMPORTANT", []decl{{"display", "none", true}}},
		{"important without space", "display:none!important", []decl{{"display", "none", true}}},
		{"important alone is no value", "display:!important", nil},
		{"escaped keyword", `display:n\6f ne`, []decl{{"display", "none", false}}},
		{"escaped name", `d\69 splay:none`, []decl{{"display", "none", false}}},
		{"escaped character", `display:\none`, []decl{{"display", "none", false}}},
		{"escaped semicolon stays in the value", `display:none\;color:red`, []decl{{"display", "none;color:red", false}}},
		{"escape of zero", `display:\0`, []decl{{"display", "\uFFFD", false}}},
		{"no-break space is not white space", "display:\u00a0none", []decl{{"display", "\u00a0none", false}}},
		{"semicolon in quotes", `content:"a;b"; display:none`, []decl{{"content", `"a;b"`, false}, {"display", "none", false}}},
		{"comment in quotes", `content:"/*"; display:none`, []decl{{"content", `"/*"`, false}, {"display", "none", false}}},
		{"newline ends a string", "content:'a\n; display:none", []decl{{"content", "'a", false}, {"display", "none", false}}},
		{"semicolon in parentheses", `background:url(a;b); display:none`, []decl{{"background", "url(a;b)", false}, {"display", "none", false}}},
		{"no colon", "display none; opacity:0", []decl{{"opacity", "0", false}}},
		{"empty name or value", ":none; display:", nil},
		{"colon in the value", "background:url(http://x/a.png)", []decl{{"background", "url(http://x/a.png)", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseDecls(tc.style); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseDecls(%q) = %+v, want %+v", tc.style, got, tc.want)
			}
		})
	}
}

func TestDim(t *testing.T) {
	tests := []struct {
		tok  string
		n    float64
		unit string
		ok   bool
	}{
		{"0", 0, "", true},
		{"-9999px", -9999, "px", true},
		{"+.5em", 0.5, "em", true},
		{"1em", 1, "em", true},
		{"1e2px", 100, "px", true},
		{"1e-1", 0.1, "", true},
		{"50%", 50, "%", true},
		{"calc(0px)", 0, "px", true},
		{"calc(1px + 1px)", 0, "", false},
		{"calc(calc(0px))", 0, "", false},
		{"var(--x)", 0, "", false},
		{"px", 0, "", false},
		{".", 0, "", false},
		{"1.px", 0, "", false},
		{"0x10", 0, "", false},
		{"inf", 0, "", false},
		{"1px2", 0, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.tok, func(t *testing.T) {
			n, unit, ok := dim(tc.tok)
			if n != tc.n || unit != tc.unit || ok != tc.ok {
				t.Errorf("dim(%q) = %v, %q, %v; want %v, %q, %v", tc.tok, n, unit, ok, tc.n, tc.unit, tc.ok)
			}
		})
	}
}

// TestStyleGone checks the hiding rules on single styles, the boundary
// rows included.
func TestStyleGone(t *testing.T) {
	tests := []struct {
		style string
		want  bool
	}{
		{"opacity:0.049", true},
		{"opacity:0.05", false},
		{"opacity:5%", false},
		{"filter:opacity(50%) opacity(5%)", true},
		{"filter:blur(2px)", false},
		{"left:-999px", true},
		{"left:-998px", false},
		{"top:-10.5in", true},
		{"top:-10.4in", false},
		{"left:-100%", false},
		{"left:calc(-9999px)", true},
		{"left:-9999px;left:var(--x)", false},
		{"left:-9999px;left:bogus", true},
		{"position:relative;left:-9999px", true},
		{"margin:-9999px 0 0 0", true},
		{"display:inline;margin-top:-9999px", false},
		{"text-indent:-9999px", true},
		{"height:0;overflow:visible", false},
		{"height:0;overflow:hidden auto", true},
		{"height:0;overflow:visible hidden", true},
		{"height:0;overflow:clip visible", false},
		{"height:0;padding:0;overflow:hidden", true},
		{"height:0;padding:10px 0;overflow:hidden", false},
		{"height:0;padding-top:1px;overflow:hidden", false},
		{"width:0%;overflow:hidden", true},
		{"height:0;height:auto;overflow:hidden", false},
		{"height:0;height:bogus;overflow:hidden", true},
		{"position:absolute;clip:rect(0px,auto,auto,0px)", false},
		{"position:absolute;clip:rect(10px,5px,20px,5px)", true},
		{"clip:rect(0,0,0,0)", true},
		{"position:fixed;clip:rect(0 0 0 0)", true},
		{"position:sticky;clip:rect(0 0 0 0)", false},
		{"clip-path:inset(49% 0 50% 0)", false},
		{"clip-path:inset(50% 0)", true},
		{"clip-path:inset(50% round 4px)", true},
		{"clip-path:circle(closest-side)", false},
		{"clip-path:polygon(evenodd, 0 0, 100% 0, 0 100%)", false},
		{"clip-path:polygon(0 0, 100% 0)", true},
		{"clip-path:xywh(0 0 100% 0)", true},
		{"clip-path:url(#mask)", false},
		{"transform:scale(0.5)", false},
		{"transform:scale3d(1, 1, 0)", false},
		{"transform:scale3d(0, 1, 1)", true},
		{"transform:matrix(1, 0, 0, 1, 10, 10)", false},
		{"transform:matrix3d(1,0,0,0, 0,0,0,0, 0,0,1,0, 0,0,0,1)", true},
		{"transform:scale(0);transform:none", false},
		{"scale:1 0", true},
		{"scale:none", false},
		{"content-visibility:auto", false},
		{"display:contents;transform:scale(0)", false},
		{"display:block flow", false},
		{"display:none;display:block flow", false},
		{"display:none;display:block bogus", true},
	}
	for _, tc := range tests {
		t.Run(tc.style, func(t *testing.T) {
			s := styleOf(styled(tc.style))
			if got := s.gone(); got != tc.want {
				t.Errorf("gone = %v, want %v (%+v)", got, tc.want, s)
			}
		})
	}
}

// TestParseDeclsBomb: a long style attribute of unclosed functions,
// declarations and comments is read in time and hides nothing.
func TestParseDeclsBomb(t *testing.T) {
	long := strings.Repeat("calc(", 50_000) + strings.Repeat(";a:b", 50_000) + strings.Repeat("/*", 10_000)
	for name, style := range map[string]string{
		"unclosed calc first": long,
		"declarations first":  strings.Repeat(";a:b", 50_000) + strings.Repeat("left:calc(", 50_000),
		"comments":            strings.Repeat("/**/", 100_000) + "opacity:1",
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			s := styleOf(styled(style))
			if d := time.Since(start); d > raceSlowdown*time.Second {
				t.Errorf("took %v", d)
			}
			if s.gone() {
				t.Error("a nonsense style hides")
			}
		})
	}
}

// styled is a <div> with the style attribute style.
func styled(style string) *html.Node {
	return &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div,
		Attr: []html.Attribute{{Key: "style", Val: style}}}
}
