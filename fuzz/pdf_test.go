package fuzz

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/pdf"
	"github.com/rypsok/rypsok/front/pdf/pdftest"
	"github.com/rypsok/rypsok/shared/limits"
)

// maxPDFBytes bounds the fuzzed document: the bounds that matter (LIM-F10
// to LIM-F13) do not depend on the body's size, and a long body only slows
// the fuzzer down.
const maxPDFBytes = 256 << 10

// FuzzPDF is PDF reading (front/pdf), web_fetch's conversion of
// application/pdf, on any body:
//
//   - Markdown never panics, returns within LIM-F13 (the watchdog calls a
//     hang what runs far past it), and fails only with ErrEncrypted,
//     ErrNoText or ErrUnreadable;
//   - it is deterministic, but where a time bound cut it (a partial
//     result may differ in how far it got);
//   - its Markdown is valid UTF-8, not empty, trimmed; its Title is valid
//     UTF-8 with white space collapsed; it read 1 to LIM-F10 pages.
func FuzzPDF(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > maxPDFBytes {
			t.Skip()
		}
		defer watchdog(t, "FuzzPDF")()
		r, err := pdf.Markdown(context.Background(), body)
		switch {
		case err == nil:
		case errors.Is(err, pdf.ErrEncrypted), errors.Is(err, pdf.ErrNoText), errors.Is(err, pdf.ErrUnreadable):
			return
		default:
			t.Fatalf("error outside the vocabulary: %v", err)
		}
		if r.Markdown == "" || r.Markdown != strings.TrimSpace(r.Markdown) || !utf8.ValidString(r.Markdown) {
			t.Errorf("markdown %q: empty, untrimmed or invalid UTF-8", r.Markdown)
		}
		if !utf8.ValidString(r.Title) || r.Title != strings.Join(strings.Fields(r.Title), " ") {
			t.Errorf("title %q: invalid UTF-8 or white space not collapsed", r.Title)
		}
		if r.Pages < 1 || r.Pages > limits.F10PDFPages {
			t.Errorf("%d pages read", r.Pages)
		}
		if again, err := pdf.Markdown(context.Background(), body); !r.Partial && (err != nil || again != r) {
			t.Errorf("not deterministic: %+v, %v after %+v", again, err, r)
		}
	})
}

// pdfSeeds are real PDFs (front/pdf's dev documents, made by groff and
// ghostscript), the documents front/pdf's tests write, and hostile ones:
// cut short, a bomb, piled-up operands, cycles, a lying table.
func pdfSeeds(t *testing.T) []seed {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "front", "pdf", "testdata", "*.pdf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PDFs in front/pdf/testdata: %v", err)
	}
	var out []seed
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, seed{filepath.Base(f), []any{b}})
	}
	text := pdftest.Doc{Title: "Seed", Pages: pdftest.Paragraphs([]string{"A heading line", "A paragraph of\nhyphen-\nated text."}, []string{"Second page."})}.Bytes()
	plain := pdftest.Doc{Uncompressed: true, Pages: pdftest.Paragraphs([]string{"Uncompressed (text) with \\ escapes."})}.Bytes()
	return append(out,
		seed{"text", []any{text}},
		seed{"uncompressed", []any{plain}},
		seed{"truncated", []any{text[:len(text)/2]}},
		seed{"no-startxref", []any{bytes.ReplaceAll(plain, []byte("startxref"), []byte("startxrex"))}},
		seed{"bomb-4mib", []any{pdftest.Bomb(4<<20, 1)}},
		seed{"operands", []any{pdftest.Operands(30000)}},
		seed{"cyclic", []any{pdftest.Cyclic()}},
		seed{"huge-xref", []any{pdftest.HugeXref()}},
		seed{"encrypted", []any{pdftest.Encrypted()}},
		seed{"image-only", []any{pdftest.ImageOnly(1)}},
		seed{"type0-font", []any{pdftest.CID(550, 0.3, "Narrow", "glyphs")}},
		seed{"empty", []any{[]byte{}}},
		seed{"header-only", []any{[]byte("%PDF-1.7\n%%EOF\n")}},
	)
}
