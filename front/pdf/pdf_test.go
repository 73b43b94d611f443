package pdf

import (
	"bytes"
	"context"
	"encoding/ascii85"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/rypsok/rypsok/front/pdf/pdftest"
	"github.com/rypsok/rypsok/shared/limits"
)

// report is a three-page document with a running header and a page
// number on every page, a title in a larger font, and a hyphenated word.
func report() pdftest.Doc {
	page := func(n string, body ...pdftest.Line) []pdftest.Line {
		ls := []pdftest.Line{{Text: "Annual Report 2025"}, {Text: " "}}
		ls = append(ls, body...)
		return append(ls, pdftest.Line{Text: " "}, pdftest.Line{Text: n})
	}
	return pdftest.Doc{Pages: [][]pdftest.Line{
		page("1", pdftest.Line{Text: "Harbour Works", Size: 20}, pdftest.Line{Text: " "},
			pdftest.Line{Text: "The harbour was rebuilt in the spring. The infor-"},
			pdftest.Line{Text: "mation below covers the works."}),
		page("2", pdftest.Line{Text: "Costs", Size: 16}, pdftest.Line{Text: " "},
			pdftest.Line{Text: "The works cost less than planned."}),
		page("3", pdftest.Line{Text: "The quay opened in June."}),
	}}
}

// TestMarkdown checks the text of known documents: pages in order with a
// thematic break between them, paragraphs joined from lines (a hyphen at
// a line's end joined), headings by font size, running headers and page
// numbers dropped, the title from the information dictionary else the
// first heading.
func TestMarkdown(t *testing.T) {
	withTitle := report()
	withTitle.Title = "Report (final)"
	for _, tc := range []struct {
		name      string
		body      []byte
		markdown  string
		title     string
		pages     int
		partial   bool
		wantError error
	}{
		{"report", report().Bytes(),
			"# Harbour Works\n\nThe harbour was rebuilt in the spring. The information below covers the works." +
				"\n\n---\n\n## Costs\n\nThe works cost less than planned.\n\n---\n\nThe quay opened in June.",
			"Harbour Works", 3, false, nil},
		{"information title", withTitle.Bytes(), "", "Report (final)", 3, false, nil},
		{"a short bold line alone is a heading below the sized ones", pdftest.Doc{Pages: [][]pdftest.Line{{
			{Text: "Report", Size: 18}, {Text: " "}, {Text: "Method", Bold: true}, {Text: " "},
			{Text: "We counted boats."}, {Text: " "}, {Text: "A bold sentence ends with a period.", Bold: true},
		}}}.Bytes(), "# Report\n\n## Method\n\nWe counted boats.\n\nA bold sentence ends with a period.", "Report", 1, false, nil},
		{"a Type0 font's widths place its glyphs", pdftest.CID(550, 0.3, "Narrow", "glyphs", "side", "by side."), "Narrow glyphs side by side.", "", 1, false, nil},
		{"a word split by kerning is one word", pdftest.CID(550, 0, "kern", "ing joins"), "kerning joins", "", 1, false, nil},
		{"uncompressed", pdftest.Doc{Uncompressed: true, Pages: pdftest.Paragraphs([]string{"One line\nand its next.", "A second paragraph."})}.Bytes(),
			"One line and its next.\n\nA second paragraph.", "", 1, false, nil},
		{"two short pages keep their lines", pdftest.Doc{Pages: pdftest.Paragraphs([]string{"Header", "Page one."}, []string{"Header", "Page two."})}.Bytes(),
			"Header\n\nPage one.\n\n---\n\nHeader\n\nPage two.", "", 2, false, nil},
		{"encrypted", pdftest.Encrypted(), "", "", 0, false, ErrEncrypted},
		{"encrypted by qpdf (AES-256, owner password only)", readFile(t, "testdata/encrypted/aes256-owner-password.pdf"), "", "", 0, false, ErrEncrypted},
		{"image only", pdftest.ImageOnly(3), "", "", 0, false, ErrNoText},
		{"no PDF", []byte("<html>not a PDF</html>"), "", "", 0, false, ErrUnreadable},
		{"empty", nil, "", "", 0, false, ErrUnreadable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Markdown(context.Background(), tc.body)
			if !errors.Is(err, tc.wantError) {
				t.Fatalf("error %v, want %v", err, tc.wantError)
			}
			if err != nil {
				return
			}
			if tc.markdown != "" && r.Markdown != tc.markdown {
				t.Errorf("markdown\n%q\nwant\n%q", r.Markdown, tc.markdown)
			}
			if r.Title != tc.title || r.Pages != tc.pages || r.Partial != tc.partial {
				t.Errorf("title %q pages %d partial %v, want %q %d %v", r.Title, r.Pages, r.Partial, tc.title, tc.pages, tc.partial)
			}
		})
	}
}

// TestHostile checks that hostile documents end within their bounds,
// without a panic, with what could be read: a Flate bomb (one stream over
// LIM-F11's share, many streams over its total), operands piled up with
// no operator, reference cycles, a cross-reference stream claiming a
// thousand million objects, a table pointing nowhere, a truncated file,
// and a document read past its time budget.
func TestHostile(t *testing.T) {
	text := pdftest.Doc{Pages: pdftest.Paragraphs(
		[]string{"First page text."}, []string{"Second page text."}, []string{"Third page text."})}.Bytes()
	broken := bytes.Replace(text, []byte("startxref\n"), []byte("startxref\n9"), 1)
	var truncated []byte
	if i := bytes.Index(text, []byte("Third")); i < 0 {
		truncated = text[:len(text)*2/3] // compressed: cut inside the third page
	} else {
		truncated = text[:i]
	}
	withBomb := pdftest.Doc{
		Pages:    append(pdftest.Paragraphs([]string{"Before the bomb."}), nil),
		Deflated: map[int][]byte{1: pdftest.Deflate(bytes.Repeat([]byte("(x) Tj "), 1<<20))},
	}.Bytes()
	for _, tc := range []struct {
		name      string
		body      []byte
		budget    time.Duration
		contains  string
		partial   bool
		wantError error
	}{
		{"flate bomb of 256 MiB", pdftest.Bomb(256<<20, 1), 0, "", false, ErrUnreadable},
		{"bombs of 2 MiB over the total (made 8 MiB here)", pdftest.Bomb(2<<20, 40), 0, "", false, ErrUnreadable},
		{"a bomb after a text page", withBomb, 0, "Before the bomb.", true, nil},
		{"4 MiB of text deflated twice (a filter array), over the share", pdftest.Doc{Pages: [][]pdftest.Line{nil},
			Deflated: map[int][]byte{0: pdftest.Deflate(pdftest.Deflate(bytes.Repeat([]byte("(x) Tj "), 4<<20/7)))},
			Filter:   "[/FlateDecode /FlateDecode]"}.Bytes(), 0, "", false, ErrUnreadable},
		{"text deflated twice", pdftest.Doc{Pages: [][]pdftest.Line{nil},
			Deflated: map[int][]byte{0: pdftest.Deflate(pdftest.Deflate([]byte("BT /F1 12 Tf 72 700 Td (Twice deflated.) Tj ET")))},
			Filter:   "[/FlateDecode /FlateDecode]"}.Bytes(), 0, "Twice deflated.", false, nil},
		{"a million operands", pdftest.Operands(1 << 20), 0, "", false, ErrUnreadable},
		{"600,000 operands in ASCII85", pdftest.Doc{Pages: [][]pdftest.Line{nil},
			Deflated: map[int][]byte{0: ascii85Of(bytes.Repeat([]byte("1 "), 600000))},
			Filter:   "/ASCII85Decode"}.Bytes(), 0, "", false, ErrUnreadable},
		{"reference cycles", pdftest.Cyclic(), 0, "", false, ErrUnreadable},
		{"a lying cross-reference stream", pdftest.HugeXref(), 0, "Text under a lying table.", false, nil},
		{"startxref pointing nowhere", broken, 0, "Third page text.", false, nil},
		{"truncated", truncated, 0, "Second page text.", true, nil},
		{"5 MiB of objects without endobj, scanned in linear time", noEndobj(5 << 20), 0, "", false, ErrUnreadable},
		{"LIM-F12's objects, scanned in linear time", pdftest.Costly("objects", 5<<20), 0, "Many objects.", false, nil},
		{"streams at LIM-F11's share, glyphs over maxPageGlyphs", pdftest.Costly("text", 5<<20), 0, "word word", true, nil},
		{"time budget", text, time.Nanosecond, "", false, ErrUnreadable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.budget
			if d == 0 {
				d = 20 * time.Second // the test's, not LIM-F13: -race is slow
			}
			total := int64(limits.F11PDFInflatedBytes)
			if strings.Contains(tc.name, "over the total") {
				total = 8 << 20 // the race detector inflates 64 MiB in seconds
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			r, err := read(context.Background(), tc.body, newBudget(context.Background(), d, total))
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("took %v", el)
			}
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 { // a pile of operands in the reader: hundreds of MiB
				t.Errorf("allocated %d MiB", alloc>>20)
			}
			if !errors.Is(err, tc.wantError) {
				t.Fatalf("error %v (%.200q), want %v", err, r.Markdown, tc.wantError)
			}
			if err != nil {
				return
			}
			if !strings.Contains(r.Markdown, tc.contains) || r.Partial != tc.partial {
				t.Errorf("markdown %.200q partial %v, want it to hold %q, partial %v", r.Markdown, r.Partial, tc.contains, tc.partial)
			}
		})
	}
}

// ascii85Of is b in ASCII85, with its end mark.
func ascii85Of(b []byte) []byte {
	out := make([]byte, ascii85.MaxEncodedLen(len(b)))
	return append(out[:ascii85.Encode(out, b)], "~>"...)
}

// noEndobj is n bytes of object headers and strings, never an endobj.
func noEndobj(n int) []byte {
	b := []byte("%PDF-1.4\n")
	for len(b) < n {
		b = append(b, "1 0 obj\n(eeeeeeeeeeeeeeeeeeeeeeeeendobeeee)\n"...)
	}
	return b
}

// readFile returns the file's bytes.
func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDevSet reads the committed dev documents (testdata/*.pdf, made by
// groff and ghostscript from texts of the extraction dev set, one with
// object streams and a cross-reference stream) and checks
// each against its truth text (*.txt) by the word shingles the extraction
// scorer counts: at least 0.97 F1 each (measured 0.975 to 1.000).
func TestDevSet(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pdf")
	if len(files) == 0 {
		t.Fatal("no testdata/*.pdf")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			truth := readFile(t, strings.TrimSuffix(f, ".pdf")+".txt")
			r, err := Markdown(context.Background(), readFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			f1 := shingleF1(string(truth), r.Markdown)
			t.Logf("F1 %.3f", f1)
			if f1 < 0.97 {
				t.Errorf("F1 %.3f, want at least 0.97:\n%s", f1, r.Markdown)
			}
		})
	}
}

// shingleF1 is the F1 of got's word 3-shingles against want's, Markdown
// marks ("#", "---") aside, as the extraction scorer counts them.
func shingleF1(want, got string) float64 {
	count := func(s string) map[string]int {
		ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		m := map[string]int{}
		for i := 0; i+3 <= len(ws); i++ {
			m[strings.Join(ws[i:i+3], " ")]++
		}
		return m
	}
	w, g := count(want), count(got)
	var tp, nw, ng int
	for k, n := range g {
		tp += min(n, w[k])
		ng += n
	}
	for _, n := range w {
		nw += n
	}
	if tp == 0 {
		return 0
	}
	p, r := float64(tp)/float64(ng), float64(tp)/float64(nw)
	return 2 * p * r / (p + r)
}
