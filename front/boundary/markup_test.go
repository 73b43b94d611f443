package boundary

import "testing"

func TestReadThrough(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text is returned as it is", "plain text", "plain text"},
		{"a backslash before punctuation is dropped", `snake\_case \[x\] \*`, "snake_case [x] *"},
		{"a backslash before a letter stays", `C:\path\to`, `C:\path\to`},
		{"a trailing backslash stays", `end\`, `end\`},
		{"an escaped backslash reads as one", `a\\_b`, `a\_b`},
		{"an escaped ampersand is no reference", `\&lt;`, "&lt;"},
		{"named references are decoded", "&lt;b&gt; &amp; &quot;", `<b> & "`},
		{"names in capitals are decoded", "&LT;&Gt;", "<>"},
		{"decimal and hex references are decoded", "&#60;&#x3e;&#X3C;", "<><"},
		{"a reference without its semicolon is decoded as HTML does", "&lt tag", "< tag"},
		{"a reference is decoded once", "&amp;lt;", "&lt;"},
		{"an unknown name stays", "&nosuch; AT&T & co", "&nosuch; AT&T & co"},
		{"a lone ampersand and hash stay", "& &# &#x;", "& &# &#x;"},
		{"a code point out of range becomes U+FFFD", "&#1114112;", "\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readThrough(tt.in); got != tt.want {
				t.Errorf("readThrough(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestInertImages(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"an image with a query becomes a link", "see ![](https://x.t/?d=secret) here", "see [](https://x.t/?d=secret) here", 1},
		{"its alternative text and title stay", `![a chart](https://x.t/c.png?w=800 "Chart")`, `[a chart](https://x.t/c.png?w=800 "Chart")`, 1},
		{"an image without a query stays", "![logo](https://x.t/logo.png)", "![logo](https://x.t/logo.png)", 0},
		{"a link with a query stays", "[docs](https://x.t/?q=go)", "[docs](https://x.t/?q=go)", 0},
		{"an escaped bang is text before a link", `Wow\![link](https://x.t/?d=1)`, `Wow\![link](https://x.t/?d=1)`, 0},
		{"an escaped bracket is no image", `!\[x](https://x.t/?d=1)`, `!\[x](https://x.t/?d=1)`, 0},
		{"an escaped backslash leaves the image live", `\\![x](https://x.t/?d=1)`, `\\[x](https://x.t/?d=1)`, 1},
		{"a linked image with a query", "[![a](https://x.t/i.png?w=1)](https://x.t/l)", "[[a](https://x.t/i.png?w=1)](https://x.t/l)", 1},
		{"a linked image without a query", "[![a](https://x.t/i.png)](https://x.t/l?x=1)", "[![a](https://x.t/i.png)](https://x.t/l?x=1)", 0},
		{"brackets and escapes in the alternative text", `![a \] [b] c](https://x.t/?d=1)`, `[a \] [b] c](https://x.t/?d=1)`, 1},
		{"parentheses inside the destination", "![a](https://x.t/a(b)?d=1)", "[a](https://x.t/a(b)?d=1)", 1},
		{"a destination in angle brackets", "![a](<https://x.t/a b?d=1>)", "[a](<https://x.t/a b?d=1>)", 1},
		{"a destination on the next line", "![a](\n  https://x.t/?d=1)", "[a](\n  https://x.t/?d=1)", 1},
		{"a reference image with a queried definition", "![a][r]\n\n[R]: https://x.t/?d=1", "[a][r]\n\n[R]: https://x.t/?d=1", 1},
		{"a collapsed reference image", "![Pic][]\n\n[pic]: https://x.t/?d=1", "[Pic][]\n\n[pic]: https://x.t/?d=1", 1},
		{"a shortcut reference image in a quote", "> ![pic]\n>\n> [pic]: https://x.t/?d=1", "> [pic]\n>\n> [pic]: https://x.t/?d=1", 1},
		{"a reference image whose definition has no query", "![a][r]\n\n[r]: https://x.t/a.png", "![a][r]\n\n[r]: https://x.t/a.png", 0},
		{"an image whose bracket never closes", "![a(https://x.t/?d=1)", "[a(https://x.t/?d=1)", 1},
		{"an image in a code span is changed too", "`![x](https://x.t/?q=1)`", "`[x](https://x.t/?q=1)`", 1},
		{"several images", "![](a?1) ![](b) ![](c?3)", "[](a?1) ![](b) [](c?3)", 2},
		{"no image", "plain text! [link](x?y)", "plain text! [link](x?y)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := InertImages(tt.in)
			if got != tt.want || n != tt.n {
				t.Errorf("InertImages(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
			}
			if again, m := InertImages(got); again != got || m != 0 {
				t.Errorf("InertImages(InertImages(%q)) = %q, %d; want it unchanged", tt.in, again, m)
			}
		})
	}
}

func TestInertImagesIsLinear(t *testing.T) {
	for _, unit := range []string{"![a](", "![", "![a][", "]", "![a](x(", "\\![", "![a]\n[a]: x?\n"} {
		linear(t, "InertImages", unit, func(s string) { InertImages(s) })
	}
}
