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
