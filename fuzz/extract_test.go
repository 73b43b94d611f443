package fuzz

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/rypsok/rypsok/front/extract"
)

// maxPageBytes bounds the fuzzed page: extraction is linear-ish in the
// page, and a long page only slows the fuzzer down. LIM-F3 pages are
// the business of front/extract's own size tests.
const maxPageBytes = 256 << 10

// extractBudget is the time one extraction may take here, under the race
// detector and the fuzzer's instrumentation.
const extractBudget = 10 * time.Second

// FuzzExtractHTML is HTML main-content extraction with its charset
// decoding (REQ-PAGE-007), on any body and Content-Type:
//
//   - Decode never fails, returns valid UTF-8 without a leading BOM, is
//     deterministic, and honors its order: a UTF-8 or UTF-16 BOM outranks
//     the header, a declared charset outranks the body (windows-1252
//     round trip), a valid UTF-8 body without a declared charset is
//     itself;
//   - HTML fails only with ErrNothing, within a time budget, and is
//     deterministic; its Markdown is valid UTF-8, not empty, trimmed,
//     without three line breaks in a row and free of invisible
//     characters; its Title is valid UTF-8 with white space collapsed;
//     its links use only http, https, mailto or ftp.
func FuzzExtractHTML(f *testing.F) {
	base, _ := url.Parse("https://example.org/dir/page.html")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		if len(body) > maxPageBytes {
			t.Skip()
		}
		defer watchdog(t, "FuzzExtractHTML")()
		doc := checkDecode(t, body, contentType)
		checkCharsets(t, doc)
		checkHTML(t, doc, base)
		if !utf8.Valid(body) {
			// HTML is always given decoded text, but takes any string.
			checkHTML(t, string(body), base)
		}
	})
}

// checkHTML checks HTML on doc (see FuzzExtractHTML).
func checkHTML(t *testing.T, doc string, base *url.URL) {
	t.Helper()
	start := time.Now()
	r, err := extract.HTML(context.Background(), doc, base)
	if d := time.Since(start); d > extractBudget {
		t.Fatalf("HTML took %v on %d bytes", d, len(doc))
	}
	if err != nil {
		if !errors.Is(err, extract.ErrNothing) {
			t.Fatalf("HTML: unexpected error %v", err)
		}
		return
	}
	if again, err := extract.HTML(context.Background(), doc, base); err != nil || again != r {
		t.Fatalf("HTML is not deterministic: %+v, then %+v, %v", r, again, err)
	}
	md := r.Markdown
	switch {
	case !utf8.ValidString(md) || !utf8.ValidString(r.Title):
		t.Fatalf("invalid UTF-8: %+q %+q", r.Title, md)
	case strings.TrimSpace(md) == "":
		t.Fatalf("empty Markdown without ErrNothing")
	case strings.TrimSpace(md) != md:
		t.Fatalf("Markdown not trimmed: %+q", md)
	case strings.Contains(strings.ReplaceAll(md, "\r\n", "\n"), "\n\n\n"):
		t.Fatalf("three line breaks in a row: %+q", md)
	case strings.ContainsAny(r.Title, "\t\n\r\v\f"):
		t.Fatalf("title white space not collapsed: %+q", r.Title)
	case strings.Contains(r.Title, "  ") || strings.TrimSpace(r.Title) != r.Title:
		// Known: extract collapses the title before it removes
		// invisible characters, so "0 \x1a" gives "0 " and
		// "a \u200b b" gives "a  b" (reported; web_fetch cleans the
		// title again with CleanDecodedText).
		t.Fatalf("title white space not collapsed: %+q", r.Title)
	}
	checkInvisibleFree(t, "HTML", doc, md, true)
	checkLinkSchemes(t, md)
}

// checkDecode checks Decode on body and contentType and returns its text.
func checkDecode(t *testing.T, body []byte, contentType string) string {
	t.Helper()
	doc, err := extract.Decode(body, contentType)
	if err != nil {
		t.Fatalf("Decode(%+q, %q): %v", body, contentType, err)
	}
	if !utf8.ValidString(doc) || strings.HasPrefix(doc, "\uFEFF") {
		t.Fatalf("Decode(%+q, %q) = %+q: invalid UTF-8 or a BOM", body, contentType, doc)
	}
	if again, _ := extract.Decode(body, contentType); again != doc {
		t.Fatalf("Decode(%+q, %q) is not deterministic", body, contentType)
	}
	hasBOM := bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) || bytes.HasPrefix(body, []byte{0xFF, 0xFE})
	if !hasBOM && utf8.Valid(body) && !strings.Contains(strings.ToLower(contentType), "charset") && doc != string(body) {
		t.Fatalf("Decode(%+q, %q) = %+q: a valid UTF-8 body without a charset changed", body, contentType, doc)
	}
	return doc
}

// checkCharsets checks Decode's order of precedence on doc, a valid
// UTF-8 text, encoded in other ways.
func checkCharsets(t *testing.T, doc string) {
	t.Helper()
	// A BOM outranks any header.
	for _, ct := range []string{"", "text/html; charset=windows-1252", "text/html; charset=shift_jis"} {
		if got, err := extract.Decode(append([]byte("\xEF\xBB\xBF"), doc...), ct); err != nil || got != strings.TrimPrefix(doc, "\uFEFF") {
			t.Fatalf("Decode(UTF-8 BOM + %+q, %q) = %+q, %v", doc, ct, got, err)
		}
		le := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(doc)) {
			le = append(le, byte(u), byte(u>>8))
		}
		if got, err := extract.Decode(le, ct); err != nil || got != strings.TrimPrefix(doc, "\uFEFF") {
			t.Fatalf("Decode(UTF-16LE BOM + %+q, %q) = %+q, %v", doc, ct, got, err)
		}
	}
	// A declared charset outranks the body: text of Latin-1 letters, in
	// windows-1252, declared in the header.
	latin := strings.Map(func(r rune) rune {
		if r < 0x80 || r >= 0xA0 && r <= 0xFF {
			return r
		}
		return -1
	}, doc)
	enc, err := charmap.Windows1252.NewEncoder().Bytes([]byte(latin))
	if err != nil || bytes.HasPrefix(enc, []byte{0xEF, 0xBB, 0xBF}) || bytes.HasPrefix(enc, []byte{0xFE, 0xFF}) || bytes.HasPrefix(enc, []byte{0xFF, 0xFE}) {
		return
	}
	if got, err := extract.Decode(enc, "text/html; charset=windows-1252"); err != nil || got != latin {
		t.Fatalf("Decode(windows-1252 of %+q) = %+q, %v", latin, got, err)
	}
}

// checkLinkSchemes fails t when a Markdown link or image of md has a
// scheme other than http, https, mailto or ftp.
func checkLinkSchemes(t *testing.T, md string) {
	t.Helper()
	for rest := md; ; {
		i := strings.Index(rest, "](")
		if i < 0 {
			return
		}
		rest = rest[i+2:]
		if i > 0 && strings.HasSuffix(md[:len(md)-len(rest)-2], `\`) {
			continue // an escaped bracket: text, not a link
		}
		target := strings.TrimPrefix(rest, "<")
		if end := strings.IndexAny(target, " )>\n"); end >= 0 {
			target = target[:end]
		}
		scheme, _, ok := strings.Cut(target, ":")
		if !ok || strings.ContainsAny(scheme, "/?#") || scheme == "" {
			continue // relative, or no scheme
		}
		switch strings.ToLower(scheme) {
		case "http", "https", "mailto", "ftp":
		default:
			if isSchemeName(scheme) {
				t.Fatalf("link with scheme %q in %+q", scheme, md)
			}
		}
	}
}

// isSchemeName reports whether s is an RFC 3986 scheme name.
func isSchemeName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}
