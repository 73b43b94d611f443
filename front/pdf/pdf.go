// Package pdf turns a PDF document into Markdown for web_fetch: the text
// of every page in the order it is shown, lines joined into paragraphs
// (a hyphen at a line's end joined), running headers and footers
// dropped, headings where the font is larger than the body's, and a
// thematic break ("---") between pages. Pure: no I/O.
//
// A PDF is hostile input: a few kilobytes of Flate can inflate to
// gigabytes, references can loop, a cross-reference table can claim a
// billion objects. The reader (github.com/ledongthuc/pdf, chosen by
// measurement: docs/design/pdf.md) has no bounds of its own, so it is
// bounded from outside:
//
//   - its cross-reference table is never the file's: scan finds the
//     objects in the bytes (at most LIM-F12, each of at most
//     maxObjectTokens tokens) and hands the reader a table of its own;
//   - it reads the file through guard, which sees each stream before the
//     reader decompresses it, decompresses it first, through every layer
//     of Flate, within LIM-F11 (2 MiB a stream, 64 MiB in all, every
//     reading counted), and refuses one over it by a panic this package
//     recovers;
//   - every read and every content-stream operator checks the time
//     budget (LIM-F13, within the call's context), so a loop stops;
//   - at most LIM-F10 pages are read, and maxPageGlyphs glyphs of a page.
//
// Whatever bound is reached, the pages read until then are the result,
// Partial; a panic of the reader on damaged input ends its page the same
// way.
package pdf

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/rypsok/rypsok/front/pdf/internal/lpdf"

	"github.com/rypsok/rypsok/shared/limits"
)

// Errors a document without readable text returns.
var (
	// ErrEncrypted is an encrypted document: rypsok has no password to
	// give, and does not read documents the author locked.
	ErrEncrypted = errors.New("pdf: the document is encrypted")
	// ErrNoText is a document whose pages show no text: scanned images
	// without a text layer.
	ErrNoText = errors.New("pdf: the document has no text layer")
	// ErrUnreadable is a document nothing could be read of: damaged, or
	// no PDF at all.
	ErrUnreadable = errors.New("pdf: nothing readable in the document")
)

// Errors of the steps, which Markdown turns into the ones above.
var (
	// errEncrypted is a document with an /Encrypt dictionary.
	errEncrypted = errors.New("pdf: encrypted")
	// errNotPDF is a body without a %PDF- header in its first kilobyte.
	errNotPDF = errors.New("pdf: no PDF header")
	// errNoCatalog is a document whose catalog cannot be found.
	errNoCatalog = errors.New("pdf: no document catalog")
	// errBudget is a document that used up LIM-F11's inflated bytes.
	errBudget = errors.New("pdf: inflated bytes budget used up")
	// errHostile is a stream over LIM-F11's per-stream share, or one whose
	// operands pile up past maxObjectTokens.
	errHostile = errors.New("pdf: hostile stream")
	// errTime is a conversion past LIM-F13 (or its context's end).
	errTime = errors.New("pdf: time budget used up")
)

// Result is a document's text.
type Result struct {
	// Title is the document information's title, else the first heading.
	Title string
	// Markdown is the text of the pages read.
	Markdown string
	// Pages is the number of pages read.
	Pages int
	// Partial reports that part of the document could not be read (damage,
	// or a bound reached): the caller notices extraction_partial.
	Partial bool
}

// Sniff reports whether body starts as a PDF document does.
func Sniff(body []byte) bool { return bytes.HasPrefix(body, []byte("%PDF-")) }

// Markdown reads body, a PDF document, within LIM-F10 to LIM-F13 and ctx.
func Markdown(ctx context.Context, body []byte) (Result, error) {
	return read(ctx, body, newBudget(ctx, limits.F13PDFTime, limits.F11PDFInflatedBytes))
}

// read is Markdown within b.
func read(ctx context.Context, body []byte, b *budget) (res Result, err error) {
	l, err := scan(body, b)
	switch {
	case errors.Is(err, errEncrypted):
		return Result{}, ErrEncrypted
	case err != nil:
		return Result{}, ErrUnreadable
	}
	f := l.build(body)
	g := &guard{f: f, b: b, objStms: l.objStms, seen: map[int64]int64{}}
	r, err := lpdf.NewReader(g, f.size())
	if err != nil {
		return Result{}, ErrUnreadable
	}
	res.Partial = l.truncated
	var pages [][]line
	var title string
	func() {
		defer func() {
			if recover() != nil {
				res.Partial = true
			}
		}()
		title = infoTitle(r)
		list, cut := pageList(r.Trailer().Key("Root").Key("Pages"), b)
		res.Partial = res.Partial || cut
		n := len(list)
		var chars int
		for i, p := range list {
			if b.check() != nil {
				res.Partial = true
				return
			}
			gs, cut := readPage(p, b)
			res.Partial = res.Partial || cut
			ls := lines(gs)
			for _, l := range ls {
				chars += len(l.text)
			}
			pages = append(pages, ls)
			res.Pages++
			if chars > limits.F3BodyBytes {
				res.Partial = res.Partial || i+1 < n
				return
			}
		}
	}()
	md, heading := render(pages)
	switch {
	case md != "":
	case res.Pages > 0 && !res.Partial:
		return Result{}, ErrNoText
	default:
		return Result{}, ErrUnreadable
	}
	if title == "" {
		title = heading
	}
	res.Title, res.Markdown = title, md
	return res, nil
}

// readPage returns a page's glyphs; cut reports that the page could not
// be read to its end (pageGlyphs).
func readPage(p lpdf.Page, b *budget) (gs []glyph, cut bool) {
	defer func() {
		if recover() != nil {
			cut = true
		}
	}()
	return pageGlyphs(p, b)
}

// maxPageTreeDepth bounds the nesting of the page tree; real trees are a
// few levels deep.
const maxPageTreeDepth = 32

// pageList returns the pages of the page tree under root in order, at
// most LIM-F10, visiting at most twice as many nodes: the reader's own
// walk (Reader.Page) loops forever on a tree that is its own kid, and a
// Value has no identity to detect the cycle by. cut reports pages left
// out, or a node that was no page.
func pageList(root lpdf.Value, b *budget) (pages []lpdf.Page, cut bool) {
	visits := 0
	var walk func(n lpdf.Value, depth int)
	walk = func(n lpdf.Value, depth int) {
		visits++
		if depth > maxPageTreeDepth || visits > 2*limits.F10PDFPages || b.check() != nil {
			cut = true
			return
		}
		typ := n.Key("Type").Name()
		if typ == "" && n.Kind() == lpdf.Dict { // a producer's omission
			typ = "Page"
			if n.Key("Kids").Kind() == lpdf.Array {
				typ = "Pages"
			}
		}
		switch typ {
		case "Page":
			if len(pages) >= limits.F10PDFPages {
				cut = true
				return
			}
			pages = append(pages, lpdf.Page{V: n})
		case "Pages":
			kids := n.Key("Kids")
			for i := 0; i < kids.Len() && !cut; i++ {
				walk(kids.Index(i), depth+1)
			}
		default:
			cut = true
		}
	}
	func() {
		defer func() {
			if recover() != nil {
				cut = true
			}
		}()
		walk(root, 0)
	}()
	return pages, cut
}

// infoTitle is the document information's /Title, white space collapsed.
func infoTitle(r *lpdf.Reader) string {
	t := r.Trailer().Key("Info").Key("Title")
	if t.Kind() != lpdf.String {
		return ""
	}
	return strings.Join(strings.Fields(t.Text()), " ")
}
