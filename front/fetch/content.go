package fetch

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"strings"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/extract"
	"github.com/rypsok/rypsok/front/pdf"
	"github.com/rypsok/rypsok/front/response"
)

// document is a page's content, cleaned, before the window.
type document struct {
	title   string
	content string
	removed int  // invisible and control characters removed from the content
	partial bool // extraction_partial
}

// errPanic is a conversion that panicked.
var errPanic = errors.New("fetch: conversion panicked")

// convert reads the page by its media type (REQ-PAGE-005): HTML and XHTML
// are decoded (REQ-PAGE-007) and extracted to Markdown (front/extract:
// ErrNothing is unsupported_content, extraction_failed, whose message
// says so when the page is an application shell that scripts would
// render, ErrScriptRendered; a partial result is noticed); text/plain
// and text/markdown are decoded and passed through the boundary
// (boundary.RemoveInvisible keeps line breaks);
// application/pdf, and application/octet-stream whose body starts
// "%PDF-" (servers that do not know the type), is read by front/pdf (an
// encrypted document, or one without a text layer, is extraction_failed
// saying so; a damaged one gives what could be read, partial); in
// every content, images whose URL carries a query become inert links
// (inertImages);
// anything else is unsupported_content, media_type. A Content-Encoding
// other than identity (the egress decodes gzip, so one left is one it
// did not ask for) is unsupported_content, media_type too, with the
// declared media type: the bytes are not text rypsok can read. A missing
// Content-Type is sniffed (http.DetectContentType). The work runs in the
// CPU pool; when ctx ends first, the call answers unavailable, deadline
// and the work is abandoned.
func (p *Pipeline) convert(ctx context.Context, pg page) (document, *response.Error) {
	ct := pg.header.Get("Content-Type")
	if strings.TrimSpace(ct) == "" {
		ct = http.DetectContentType(pg.body)
	}
	mt := mediaType(ct)
	if ce := strings.ToLower(strings.TrimSpace(pg.header.Get("Content-Encoding"))); ce != "" && ce != "identity" {
		return document{}, unsupportedMedia(mt)
	}
	var work func() (document, error)
	switch mt {
	case "text/html", "application/xhtml+xml":
		work = func() (document, error) {
			s, err := extract.Decode(pg.body, ct)
			if err != nil {
				return document{}, extract.ErrNothing
			}
			r, err := extract.HTML(ctx, s, pg.url.url)
			if err != nil {
				return document{}, err
			}
			return document{title: r.Title, content: r.Markdown, partial: r.Partial, removed: r.Removed}, nil
		}
	case "text/plain", "text/markdown":
		work = func() (document, error) {
			s, err := extract.Decode(pg.body, ct)
			if err != nil {
				return document{}, extract.ErrNothing
			}
			s, removed := boundary.RemoveInvisible(s)
			return document{content: s, removed: removed}, nil
		}
	case "application/pdf":
		work = func() (document, error) { return pdfDocument(ctx, pg.body) }
	case "application/octet-stream":
		if !pdf.Sniff(pg.body) {
			return document{}, unsupportedMedia(mt)
		}
		mt = "application/pdf"
		work = func() (document, error) { return pdfDocument(ctx, pg.body) }
	default:
		return document{}, unsupportedMedia(mt)
	}
	weight := parseWeight(len(pg.body))
	if mt == "application/pdf" {
		weight = pdfWeight
	}
	doc, err := p.offload(ctx, weight, func() (document, error) {
		doc, err := work()
		return inertImages(doc), err
	})
	switch {
	case err == nil:
		return doc, nil
	case ctx.Err() != nil:
		return document{}, response.Unavailable(response.ReasonDeadline, -1)
	case errors.Is(err, pdf.ErrEncrypted):
		return document{}, response.PDFEncrypted()
	case errors.Is(err, pdf.ErrNoText):
		return document{}, response.PDFNoText()
	case errors.Is(err, errPanic):
		p.o.Log.Error().Str("event", "fetch_conversion_panic").Send()
	case errors.Is(err, extract.ErrScriptRendered):
		return document{}, response.ScriptRendered()
	}
	return document{}, response.ExtractionFailed()
}

// pdfWeight is a PDF's weight against ParseBudget: all of it, so that a
// PDF converts alone. What front/pdf holds at once is bounded by its
// limits (LIM-F11's 2 MiB per stream, maxObjectTokens, maxPageGlyphs,
// LIM-F12's table) and the pages' text, not by the body's size, and
// was measured at most about as much as a full HTML tree
// (TestPDFBombsKeepTheFrontUnderItsCeiling).
const pdfWeight = ParseBudget

// pdfDocument reads a PDF body (front/pdf) as web_fetch's document, its
// text passed through the boundary as a text page's is.
func pdfDocument(ctx context.Context, body []byte) (document, error) {
	r, err := pdf.Markdown(ctx, body)
	if err != nil {
		return document{}, err
	}
	s, removed := boundary.RemoveInvisible(r.Markdown)
	return document{title: r.Title, content: s, removed: removed, partial: r.Partial}, nil
}

// inertImages makes the content's images whose URL carries a query inert
// links (boundary.InertImages), whatever the media type: a text/markdown
// page writes them itself, and a Markdown client would fetch them without
// anyone's action. Each costs the content one character, the "!", and is
// counted in removed, which the caller notices as characters_removed.
// That is the notice of the vocabulary that says what happened: characters
// were taken out of the content, and nothing else changed. It is not
// instruction_like_content: an image with a query is no instruction, and
// ordinary articles carry them (image servers' size parameters: 56 of the
// 500 pages of the extraction dev sets), where that notice would be noise.
func inertImages(doc document) document {
	var n int
	doc.content, n = boundary.InertImages(doc.content)
	doc.removed += n
	return doc
}

// offload runs work in the CPU pool (at most min(LIM-C8, GOMAXPROCS) at
// once, and at most ParseBudget of tree: weight is this page's) in a
// goroutine the Pipeline's WaitGroup owns, and returns its result, or
// ctx's error as soon as ctx ends: the work then finishes unobserved. A
// panic in work is recovered as errPanic.
func (p *Pipeline) offload(ctx context.Context, weight int64, work func() (document, error)) (document, error) {
	if err := p.parsing.Acquire(ctx, weight); err != nil {
		return document{}, err
	}
	select {
	case p.cpu <- struct{}{}:
	case <-ctx.Done():
		p.parsing.Release(weight)
		return document{}, ctx.Err()
	}
	type result struct {
		doc document
		err error
	}
	done := make(chan result, 1)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer p.parsing.Release(weight)
		defer func() { <-p.cpu }()
		var r result
		defer func() {
			if recover() != nil {
				r = result{err: errPanic}
			}
			done <- r
		}()
		r.doc, r.err = work()
	}()
	select {
	case r := <-done:
		return r.doc, r.err
	case <-ctx.Done():
		return document{}, ctx.Err()
	}
}

// mediaType returns ct's media type, lower-cased, without parameters.
func mediaType(ct string) string {
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}
