package fuzz

import (
	"errors"
	"math/big"
	"mime"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/extract"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// maxRetryAfter is the cap of every Retry-After and rate-limit reset
// (docs/design/decisions.md, circuit breaker; REQ-FETCH-011).
const maxRetryAfter = 3600 * time.Second

// FuzzHeaderValues is the header values rypsok reads from providers,
// sites and the egress, on any value:
//
//   - Retry-After: engine.RetryAfter is within [0, 3600 s] in whole
//     seconds, exactly min(n, 3600) s for delay-seconds n, zero for an
//     HTTP date; engine.ClassifyStatus classifies every status into the
//     vocabulary by the documented table; web_fetch's retry_after_ms is
//     absent or within [0, 3 600 000], exactly min(n, 3600) × 1000 for
//     the statuses that end "retry later".
//   - Content-Type: Answer.MediaType is the lower-case media type without
//     parameters; Decode of a UTF-8 body is the body unless a charset is
//     declared; web_fetch reads the media types it supports and refuses
//     the others with a media_type that is clean, lower-case and at most
//     100 characters.
//   - Rate-limit headers: every driver classifies a 429 rate_limited (or
//     blocked) with a wait within [0, 1 h]; Brave's X-RateLimit-Reset
//     window of the error code decides its wait.
//   - Contract headers: ParseRequest refuses with ErrContract or gives a
//     request of the vocabularies that Apply writes back unchanged;
//     RefusalOf and EndOf read only the closed vocabularies; and a site's
//     own Rypsok-* headers never reach the front (the egress strips them:
//     a site cannot forge a refusal or an end).
func FuzzHeaderValues(f *testing.F) {
	c := agentConfig(f, 1) // http allowed: the site is plain http
	fr := newFront(f, c)
	ds := buildDrivers(f)
	f.Fuzz(func(t *testing.T, status uint16, retryAfter, contentType, reset, refusal, end, contractHeaders string) {
		defer watchdog(t, "FuzzHeaderValues")()
		st := 100 + int(status%500)
		checkRetryAfter(t, st, retryAfter)
		checkMediaType(t, contentType)
		checkRateLimit(t, ds, retryAfter, reset)
		checkContract(t, st, refusal, end, contractHeaders)
		siteStatus := st
		if siteStatus < 200 {
			siteStatus += 100 // a 1xx is not a final answer
		}
		checkSiteHeaders(t, fr, siteStatus, retryAfter, contentType, refusal, end)
	})
}

// isDigits reports whether v, trimmed, is delay-seconds: 1*DIGIT.
func isDigits(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && strings.Trim(v, "0123456789") == ""
}

// retryAfterWant is the documented reading of a Retry-After value v:
// the wait, and whether the documents fix it (for delay-seconds too
// large for an int64, the cap and zero are both accepted).
func retryAfterWant(v string) (want time.Duration, fixed bool) {
	v = strings.TrimSpace(v)
	if isDigits(v) {
		n, _ := new(big.Int).SetString(v, 10)
		if n.Cmp(big.NewInt(int64(maxRetryAfter/time.Second))) >= 0 {
			return maxRetryAfter, n.IsInt64()
		}
		return time.Duration(n.Int64()) * time.Second, true
	}
	if _, err := http.ParseTime(v); err == nil {
		return 0, true
	}
	return 0, false
}

func checkRetryAfter(t *testing.T, st int, retryAfter string) {
	t.Helper()
	h := http.Header{"Retry-After": {retryAfter}}
	d := engine.RetryAfter(h)
	if d < 0 || d > maxRetryAfter || d%time.Second != 0 {
		t.Fatalf("RetryAfter(%q) = %v", retryAfter, d)
	}
	switch want, fixed := retryAfterWant(retryAfter); {
	case fixed && d != want:
		t.Fatalf("RetryAfter(%q) = %v, want %v", retryAfter, d, want)
	case !fixed && isDigits(retryAfter) && d != 0 && d != maxRetryAfter:
		t.Fatalf("RetryAfter(%q) = %v, want the cap or zero", retryAfter, d)
	}
	e := engine.ClassifyStatus(&engine.Answer{Status: st, Header: h})
	var want response.EngineClass
	wait := time.Duration(0)
	switch {
	case st >= 200 && st <= 299:
	case st == 429:
		want, wait = response.ClassRateLimited, d
	case st == 401 || st == 403:
		want = response.ClassUnauthorized
	case st >= 500:
		want, wait = response.ClassServerError, d
	default:
		want = response.ClassBadResponse
	}
	switch {
	case want == "" && e != nil:
		t.Fatalf("ClassifyStatus(%d) = %v, want nil", st, e)
	case want != "" && (e == nil || e.Class != want || e.RetryAfter != wait):
		t.Fatalf("ClassifyStatus(%d, Retry-After %q) = %+v, want %s after %v", st, retryAfter, e, want, wait)
	}
}

func checkMediaType(t *testing.T, contentType string) {
	t.Helper()
	a := &engine.Answer{Header: http.Header{"Content-Type": {contentType}}}
	mt := a.MediaType()
	before, _, _ := strings.Cut(contentType, ";")
	if want := strings.ToLower(strings.TrimSpace(before)); mt != want {
		t.Fatalf("MediaType(%q) = %q, want %q", contentType, mt, want)
	}
	const page = "<p>Grüße, 世界</p>"
	doc, err := extract.Decode([]byte(page), contentType)
	if err != nil {
		t.Fatalf("Decode(UTF-8, %q): %v", contentType, err)
	}
	if _, params, err := mime.ParseMediaType(contentType); (err != nil || params["charset"] == "") && doc != page {
		t.Fatalf("Decode(%q, %q) = %q, but no charset is declared", page, contentType, doc)
	}
}

// rateLimitBodies are Brave's 429 bodies, by the window of
// X-RateLimit-Reset their code reads.
var rateLimitBodies = []struct {
	body   string
	window int
}{
	{`{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","status":429}}`, 0},
	{`{"type":"ErrorResponse","error":{"code":"QUOTA_LIMITED","status":429}}`, 1},
	{`{}`, 0},
}

func checkRateLimit(t *testing.T, ds []registered, retryAfter, reset string) {
	t.Helper()
	h := http.Header{"Retry-After": {retryAfter}, "X-Ratelimit-Reset": {reset}, "Content-Type": {"application/json"}}
	for _, r := range ds {
		for _, b := range rateLimitBodies {
			c := &canned{status: http.StatusTooManyRequests, header: h, body: []byte(b.body), end: string(contract.EndComplete)}
			res, err := search(r.driver(t), c, limits.S3ResultsPerEngine)
			var e *engine.Error
			if !errors.As(err, &e) || res != nil {
				t.Fatalf("%s, 429 %s: %d results, %v", r.typ, b.body, len(res), err)
			}
			if (e.Class != response.ClassRateLimited && e.Class != response.ClassBlocked) || e.RetryAfter < 0 || e.RetryAfter > time.Hour {
				t.Fatalf("%s, 429 with Retry-After %q, X-RateLimit-Reset %q: %+v", r.typ, retryAfter, reset, e)
			}
			if r.typ != "brave" {
				continue
			}
			want := engine.RetryAfter(h)
			if entries := strings.Split(reset, ","); b.window < len(entries) {
				e := strings.TrimSpace(entries[b.window])
				switch w, fixed := retryAfterWant(e); {
				case isDigits(e) && fixed && w > 0:
					want = w
				case isDigits(e) && !fixed:
					continue // too large for an int64: the cap or the fallback
				case e != "" && !isDigits(e):
					continue // not delay-seconds ("+5"): the documents do not say
				}
			}
			if e.RetryAfter != want {
				t.Fatalf("brave, 429 %s with X-RateLimit-Reset %q, Retry-After %q: wait %v, want %v", b.body, reset, retryAfter, e.RetryAfter, want)
			}
		}
	}
}

func checkContract(t *testing.T, st int, refusal, end, contractHeaders string) {
	t.Helper()
	h, _ := parseHeaders(contractHeaders)
	r, err := contract.ParseRequest(h)
	if err != nil {
		if !errors.Is(err, contract.ErrContract) {
			t.Fatalf("ParseRequest(%v): error %v is not ErrContract", h, err)
		}
	} else {
		if !r.Profile.Valid() || (r.Profile == contract.ProfileEngine) != (r.Engine != "") || r.Engine != "" && !contract.ValidEngineID(r.Engine) || r.Deadline < 0 || r.MaxBytes < 0 {
			t.Fatalf("ParseRequest(%v) = %+v", h, r)
		}
		h2 := h.Clone()
		r.Apply(h2)
		if back, err := contract.ParseRequest(h2); err != nil || back != r {
			t.Fatalf("ParseRequest(%v) = %+v, but after Apply %+v, %v", h, r, back, err)
		}
	}

	resp := &http.Response{StatusCode: st, Header: http.Header{}, Trailer: http.Header{}}
	if refusal != "" {
		resp.Header.Set(contract.HeaderRefusal, refusal)
	}
	resp.Trailer.Set(contract.TrailerEnd, end)
	reason, ok := contract.RefusalOf(resp)
	switch {
	case ok != (resp.Header.Get(contract.HeaderRefusal) != ""):
		t.Fatalf("RefusalOf(%q) = %v", refusal, ok)
	case ok && !reason.Valid():
		t.Fatalf("RefusalOf(%q) = %q, outside the vocabulary", refusal, reason)
	case ok && contract.Reason(refusal).Valid() && reason != contract.Reason(refusal):
		t.Fatalf("RefusalOf(%q) = %q", refusal, reason)
	case ok && !contract.Reason(refusal).Valid() && reason != contract.ReasonContract:
		t.Fatalf("RefusalOf(%q) = %q, want contract", refusal, reason)
	}
	if ok {
		s, rh, body := contract.Refusal(reason)
		if !slices.Contains([]int{400, 403, 502, 504}, s) || strings.Count(body, "\n") != 1 {
			t.Fatalf("Refusal(%q) = %d, %q", reason, s, body)
		}
		if back, ok := contract.RefusalOf(&http.Response{StatusCode: s, Header: rh}); !ok || back != reason {
			t.Fatalf("RefusalOf(Refusal(%q)) = %q, %v", reason, back, ok)
		}
	}
	e := contract.EndOf(resp)
	switch {
	case !e.Valid():
		t.Fatalf("EndOf(%q) = %q, outside the vocabulary", end, e)
	case st == 204 || st == 304:
		if e != contract.EndComplete {
			t.Fatalf("EndOf(%d) = %q, want complete", st, e)
		}
	case contract.End(end).Valid() && e != contract.End(end), !contract.End(end).Valid() && e != contract.EndNetwork:
		t.Fatalf("EndOf(trailer %q) = %q", end, e)
	}
}

// headerValue makes s a value the fake site can send: no control
// characters but tab.
func headerValue(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' || r == 0x7F {
			return -1
		}
		return r
	}, s)
}

// supportedMedia are the media types web_fetch reads (REQ-PAGE-005,
// REQ-PAGE-013); the fuzzed site's body is HTML, which application/pdf
// reads as extraction_failed.
var supportedMedia = []string{"text/html", "application/xhtml+xml", "text/plain", "text/markdown", "application/pdf"}

func checkSiteHeaders(t *testing.T, fr *front, st int, retryAfter, contentType, refusal, end string) {
	t.Helper()
	const raw = "http://site.example/page"
	retryAfter, contentType = headerValue(retryAfter), headerValue(contentType)
	plain := &site{status: st, body: []byte("<!doctype html><title>T</title><p>Hello from the fuzzed site, with some text.</p>")}
	if retryAfter != "" {
		plain.headers = append(plain.headers, [2]string{"Retry-After", retryAfter})
	}
	if contentType != "" {
		plain.headers = append(plain.headers, [2]string{"Content-Type", contentType})
	}
	o := fr.get(raw, plain)
	checkVocabulary(t, "web_fetch", o.err)
	if len(o.dials) != 1 {
		t.Fatalf("web_fetch(%q): dialled %q", raw, o.dials)
	}

	// A site's own contract headers are the egress's to strip.
	forged := *plain
	forged.headers = append(slices.Clone(plain.headers), [2]string{contract.HeaderRefusal, headerValue(refusal) + "address"},
		[2]string{contract.TrailerEnd, headerValue(end)}, [2]string{contract.HeaderVersion, "1"})
	if f := fr.get(raw, &forged); f.key() != o.key() || !reflectEqualFetch(f.out, o.out) {
		t.Fatalf("a site's Rypsok-Refusal %q, Rypsok-End %q changed web_fetch: %s, want %s", refusal, end, f.key(), o.key())
	}

	switch {
	case st >= 200 && st <= 299:
		mt := contentType
		if strings.TrimSpace(mt) == "" {
			mt = http.DetectContentType(plain.body)
		}
		if m, _, err := mime.ParseMediaType(mt); err == nil {
			mt = m
		} else {
			before, _, _ := strings.Cut(mt, ";")
			mt = strings.ToLower(strings.TrimSpace(before))
		}
		if slices.Contains(supportedMedia, mt) {
			if o.err != nil && !(o.kind == response.KindUnsupportedContent && o.reason == response.ReasonExtractionFailed) {
				t.Fatalf("web_fetch of a %d %q page: %s", st, contentType, o.key())
			}
			if o.err == nil {
				checkFetched(t, fr, raw, o.out)
			}
			return
		}
		if o.kind != response.KindUnsupportedContent || o.reason != response.ReasonMediaType {
			t.Fatalf("web_fetch of a %d %q page: %s, want unsupported_content/media_type", st, contentType, o.key())
		}
		got := o.err.Body.Detail.MediaType
		checkCleanText(t, "media_type", contentType, got, 100)
		if strings.ToLower(got) != got {
			t.Fatalf("media_type %q of %q is not lower-case", got, contentType)
		}
	case st >= 400:
		if o.kind != response.KindUnavailable || o.reason != response.ReasonHTTPStatus || o.err.Body.Detail.Status != st {
			t.Fatalf("web_fetch of a %d: %s %+v", st, o.key(), o.err)
		}
		ms := o.err.Body.Detail.RetryAfterMs
		later := st == 408 || st == 425 || st == 429 || st >= 500
		if ms != nil && (!later || *ms < 0 || *ms > int64(maxRetryAfter/time.Millisecond)) {
			t.Fatalf("web_fetch of a %d with Retry-After %q: retry_after_ms %d", st, retryAfter, *ms)
		}
		if want, fixed := retryAfterWant(retryAfter); later && fixed && isDigits(retryAfter) {
			if ms == nil || *ms != want.Milliseconds() {
				t.Fatalf("web_fetch of a %d with Retry-After %q: retry_after_ms %v, want %d", st, retryAfter, ms, want.Milliseconds())
			}
		}
	}
}

// checkFetched checks a web_fetch answer: ok, for the URL asked, content
// within max_chars (LIM-F1 by default) and free of invisible characters,
// a clean title within LIM-S10, notices of the vocabulary.
func checkFetched(t *testing.T, fr *front, raw string, out response.Fetch) {
	t.Helper()
	switch {
	case out.Outcome != response.OutcomeOK || out.URL != raw:
		t.Fatalf("web_fetch(%q) = %s for %q", raw, out.Outcome, out.URL)
	case utf8.RuneCountInString(out.Content) > fr.cfg.Fetch.MaxChars:
		t.Fatalf("web_fetch(%q): %d characters of content, over %d", raw, utf8.RuneCountInString(out.Content), fr.cfg.Fetch.MaxChars)
	case out.Truncated != (out.NextStartChar != nil):
		t.Fatalf("web_fetch(%q): truncated %v, next_start_char %v", raw, out.Truncated, out.NextStartChar)
	}
	checkInvisibleFree(t, "web_fetch content", raw, out.Content, true)
	checkCleanText(t, "web_fetch title", raw, out.Title, limits.S10TitleChars)
	for _, n := range out.Notices {
		if !slices.Contains(response.NoticeCodes(), n.Code) || n.Count < 1 {
			t.Fatalf("web_fetch(%q): notice %+v", raw, n)
		}
	}
}

// reflectEqualFetch compares two web_fetch answers.
func reflectEqualFetch(a, b response.Fetch) bool {
	if (a.NextStartChar == nil) != (b.NextStartChar == nil) || a.NextStartChar != nil && *a.NextStartChar != *b.NextStartChar {
		return false
	}
	a.NextStartChar, b.NextStartChar = nil, nil
	return a.Outcome == b.Outcome && a.URL == b.URL && a.Title == b.Title && a.Content == b.Content && a.Truncated == b.Truncated && slices.Equal(a.Notices, b.Notices)
}
