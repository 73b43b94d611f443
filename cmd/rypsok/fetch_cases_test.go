package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	"github.com/rypsok/rypsok/egress/dnstest"
	"github.com/rypsok/rypsok/shared/limits"
)

// The web_fetch cases of REQ-PAGE-005, REQ-PAGE-007, REQ-FETCH-003,
// REQ-FETCH-005, REQ-FETCH-006, REQ-FETCH-011 and REQ-SEC-021, end to
// end: rypsok serve over stdio, its own rypsok-egress, and loopback sites
// the egress is allowed to reach.

// errorMarker is written in the body of every error and redirect answer
// of the sites below: it must never reach a response (REQ-FETCH-011).
const errorMarker = "ERROR-BODY-MARKER-9f3c"

// portOfURL returns the port of an httptest server's URL.
func portOfURL(u string) string { return u[strings.LastIndexByte(u, ':')+1:] }

// fetchSession starts rypsok serve with a configuration whose egress
// reaches allow (ip:port rules) over http, resolving names with dns
// ("127.0.0.1:1", unused, when empty), followed by extra TOML (whole
// sections).
func fetchSession(t *testing.T, allow []string, dns, extra string) *mcp.ClientSession {
	t.Helper()
	if dns == "" {
		dns = "127.0.0.1:1"
	}
	rules, _ := json.Marshal(allow)
	toml := fmt.Sprintf("config_version = 1\n[egress]\ndns_servers = [%q]\nallow_http = true\nallow = %s\n%s", dns, rules, extra)
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, _, _ := session(t, "RYPSOK_CONFIG="+cfg)
	return cs
}

// fetchRaw calls web_fetch and returns the error flag, the decoded object
// and the whole result as JSON (text and structured content).
func fetchRaw(t *testing.T, cs *mcp.ClientSession, args map[string]any) (bool, map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "web_fetch", Arguments: args})
	if err != nil {
		t.Fatalf("web_fetch: %v", err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &obj); err != nil {
		t.Fatal(err)
	}
	return res.IsError, obj, string(raw)
}

// fetchError returns the error object of a failed call, failing the test
// when the call succeeded.
func fetchError(t *testing.T, isErr bool, obj map[string]any) (kind string, detail map[string]any) {
	t.Helper()
	e, _ := obj["error"].(map[string]any)
	if !isErr || e == nil {
		t.Fatalf("want an error, got %v", obj)
	}
	detail, _ = e["detail"].(map[string]any)
	kind, _ = e["kind"].(string)
	return kind, detail
}

// article is an HTML page the extractor reads as an article: head's
// elements (a <meta> charset, say) and the title in its <head>, then a
// heading and four paragraphs holding text.
func article(head, title, text string) string {
	return "<!DOCTYPE html><html><head>" + head + "<title>" + title + "</title></head><body><article><h1>" + title + "</h1>" +
		strings.Repeat("<p>"+text+" The rest of this paragraph is plain filler, long enough for the extractor to see a body of text worth keeping.</p>", 4) +
		"</article></body></html>"
}

// encode returns s in e.
func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// TestFetchDecodesEveryCharset checks REQ-PAGE-007's order over stdio: a
// byte-order mark, the header's charset, UTF-8 when the whole body is
// valid UTF-8, the <meta> declaration, windows-1252.
func TestFetchDecodesEveryCharset(t *testing.T) {
	type page struct {
		ct   string
		body []byte
	}
	const (
		latin    = "Café crème brûlée à la française"
		greek    = "Καλημέρα κόσμε, ελληνικό κείμενο"
		cyrillic = "Привет, мир: русский текст"
		japan    = "日本語の文章です。漢字とかな"
		curly    = "“Café” — naïve"
	)
	cases := []struct {
		name, path, title, want string
		page                    page
		invalidUTF8             bool // a precondition of the case
	}{
		{"header charset iso-8859-1, body in Latin-1", "/latin1", "Crème", latin,
			page{"text/html; charset=iso-8859-1", encode(t, charmap.ISO8859_1, article("", "Crème", latin))}, true},
		{"header charset wins over a contradicting meta", "/header-over-meta", "Русский", cyrillic,
			page{"text/html; charset=KOI8-R", encode(t, charmap.KOI8R, article(`<meta charset="windows-1252">`, "Русский", cyrillic))}, true},
		// The BOM decides: the body is not valid UTF-8 (one stray byte) and
		// its meta names another encoding.
		{"a UTF-8 BOM, no header charset", "/bom8", "Ελληνικά", greek,
			page{"text/html", append([]byte("\xEF\xBB\xBF"), []byte(strings.Replace(article(`<meta charset="koi8-r">`, "Ελληνικά", greek), "</h1>", "</h1><p>stray \xff byte</p>", 1))...)}, true},
		{"UTF-16LE with its BOM", "/utf16le", "Ελληνικά", greek,
			page{"text/html", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), article("", "Ελληνικά", greek))}, true},
		{"valid UTF-8 with a wrong meta charset is UTF-8", "/utf8-wrong-meta", "Crème", latin,
			page{"text/html", []byte(article(`<meta charset="iso-8859-1">`, "Crème", latin))}, false},
		{"invalid UTF-8, meta charset koi8-r", "/meta-koi8r", "Русский", cyrillic,
			page{"text/html", encode(t, charmap.KOI8R, article(`<meta charset="koi8-r">`, "Русский", cyrillic))}, true},
		{"invalid UTF-8, meta http-equiv Shift_JIS", "/meta-sjis", "日本語", japan,
			page{"text/html", encode(t, japanese.ShiftJIS, article(`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`, "日本語", japan))}, true},
		{"no charset anywhere, windows-1252 bytes", "/cp1252", "Café", curly,
			page{"text/html", encode(t, charmap.Windows1252, article("", "Café", curly))}, true},
	}
	pages := map[string]page{}
	for _, tc := range cases {
		if !utf8.Valid(tc.page.body) != tc.invalidUTF8 {
			t.Fatalf("%s: the body's UTF-8 validity is not the case's (%v)", tc.name, !tc.invalidUTF8)
		}
		pages[tc.path] = tc.page
	}
	if !strings.Contains(string(pages["/cp1252"].body), "\x93Caf\xe9\x94") {
		t.Fatal("the windows-1252 page lacks its curly quotes and é as single bytes")
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", p.ct)
		w.Write(p.body)
	}))
	defer site.Close()
	cs := fetchSession(t, []string{"127.0.0.1:" + portOfURL(site.URL)}, "", "[fetch]\nrobots_txt = false\n")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": site.URL + tc.path})
			if isErr || obj["outcome"] != "ok" {
				t.Fatalf("got %v", obj)
			}
			content, _ := obj["content"].(string)
			if strings.Count(content, tc.want) != 4 {
				t.Errorf("content lacks %q four times:\n%s", tc.want, content)
			}
			if obj["title"] != tc.title {
				t.Errorf("title %q, want %q", obj["title"], tc.title)
			}
			if strings.ContainsRune(content, '\uFEFF') {
				t.Error("the BOM is in the content")
			}
		})
	}
}

// TestFetchStatusClasses checks how every status class ends
// (REQ-FETCH-011, REQ-FETCH-006): 2xx read; same-host 3xx followed up to
// LIM-F7; a 3xx with no usable Location, 4xx and 5xx unavailable,
// http_status with the status; retry_after_ms only for the statuses that
// end "retry later", from a Retry-After in seconds capped at an hour. No
// error or redirect body ever reaches the response.
func TestFetchStatusClasses(t *testing.T) {
	const text = "The harbour opens at dawn and closes at dusk, every day of the year."
	okPage := article("", "Harbour", text)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case r.URL.Path == "/target":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, okPage)
			return
		case r.URL.Path == "/early-hints":
			w.Header().Set("Link", "</style.css>; rel=preload; as=style")
			w.WriteHeader(http.StatusEarlyHints)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, okPage)
			return
		case r.URL.Path == "/long-location":
			w.Header().Set("Location", "/"+strings.Repeat("a", limits.F9URLChars))
			w.WriteHeader(http.StatusFound)
			fmt.Fprint(w, errorMarker)
			return
		case r.URL.Path == "/no-content":
			w.WriteHeader(http.StatusNoContent)
			return
		case strings.HasPrefix(r.URL.Path, "/chain/"):
			var n int
			fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			if n == 0 {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, okPage)
				return
			}
			w.Header().Set("Location", fmt.Sprintf("/chain/%d", n-1))
			w.WriteHeader(http.StatusFound)
			fmt.Fprint(w, errorMarker)
			return
		}
		// /status?code=N[&location=L][&retry_after=S]
		var code int
		fmt.Sscanf(q.Get("code"), "%d", &code)
		if l, ok := q["location"]; ok {
			w.Header()["Location"] = l
		}
		if ra := q.Get("retry_after"); ra != "" {
			w.Header().Set("Retry-After", ra)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(code)
		if code >= 200 && code <= 299 {
			fmt.Fprint(w, okPage)
			return
		}
		fmt.Fprint(w, "<html><body><article><p>"+errorMarker+" "+text+"</p></article></body></html>")
	}))
	defer site.Close()
	status := func(code int, params ...string) string {
		u := fmt.Sprintf("%s/status?code=%d", site.URL, code)
		for i := 0; i+1 < len(params); i += 2 {
			u += "&" + params[i] + "=" + params[i+1]
		}
		return u
	}
	const absent = -1
	cases := []struct {
		name string
		url  string
		// ok: the fetched URL; else unavailable, http_status with status and
		// retry_after_ms (absent: no field).
		ok         string
		status     int
		retryAfter int64
	}{
		{"200", status(200), site.URL + "/status?code=200", 0, 0},
		{"103 early hints, then 200", site.URL + "/early-hints", site.URL + "/early-hints", 0, 0},
		{"301 to a path", status(301, "location", "/target"), site.URL + "/target", 0, 0},
		{"302 to the absolute URL", status(302, "location", site.URL+"/target"), site.URL + "/target", 0, 0},
		{"303 to a relative path", status(303, "location", "target"), site.URL + "/target", 0, 0},
		{"307", status(307, "location", "/target"), site.URL + "/target", 0, 0},
		{"308", status(308, "location", "/target"), site.URL + "/target", 0, 0},
		{"LIM-F7 same-host redirects are followed", fmt.Sprintf("%s/chain/%d", site.URL, limits.F7SameHostRedirect), site.URL + "/chain/0", 0, 0},
		{"one redirect past LIM-F7", fmt.Sprintf("%s/chain/%d", site.URL, limits.F7SameHostRedirect+1), "", 302, absent},
		{"302 without Location", status(302), "", 302, absent},
		{"300 without Location", status(300), "", 300, absent},
		{"304", status(304), "", 304, absent},
		{"301 with a malformed Location", status(301, "location", "http://%5B::1"), "", 301, absent},
		{"302 with a Location over LIM-F9", site.URL + "/long-location", "", 302, absent},
		{"400", status(400, "retry_after", "30"), "", 400, absent},
		{"403", status(403), "", 403, absent},
		{"404 (Retry-After ignored)", status(404, "retry_after", "30"), "", 404, absent},
		{"410 (Retry-After ignored)", status(410, "retry_after", "30"), "", 410, absent},
		{"408", status(408, "retry_after", "7"), "", 408, 7000},
		{"425", status(425, "retry_after", "7"), "", 425, 7000},
		{"429", status(429, "retry_after", "7"), "", 429, 7000},
		{"500", status(500, "retry_after", "7"), "", 500, 7000},
		{"503", status(503, "retry_after", "7"), "", 503, 7000},
		{"502 with Retry-After 0", status(502, "retry_after", "0"), "", 502, 0},
		{"503 with Retry-After of exactly an hour", status(503, "retry_after", "3600"), "", 503, 3_600_000},
		{"503 with Retry-After past an hour is capped", status(503, "retry_after", "86400"), "", 503, 3_600_000},
		{"429 with Retry-After as an HTTP date", status(429, "retry_after", "Wed,%2021%20Oct%202099%2007:28:00%20GMT"), "", 429, absent},
		{"429 with a negative Retry-After", status(429, "retry_after", "-5"), "", 429, absent},
		{"500 without Retry-After", status(500), "", 500, absent},
		{"504 without Retry-After", status(504), "", 504, absent},
	}
	cs := fetchSession(t, []string{"127.0.0.1:" + portOfURL(site.URL)}, "", "[fetch]\nrobots_txt = false\n")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj, raw := fetchRaw(t, cs, map[string]any{"url": tc.url})
			if strings.Contains(raw, errorMarker) {
				t.Errorf("an error or redirect body reached the response:\n%s", raw)
			}
			if tc.ok != "" {
				if isErr || obj["outcome"] != "ok" || obj["url"] != tc.ok || strings.Count(obj["content"].(string), text) != 4 {
					t.Fatalf("got %v, want ok from %s", obj, tc.ok)
				}
				return
			}
			kind, d := fetchError(t, isErr, obj)
			if kind != "unavailable" || d["reason"] != "http_status" || d["status"] != float64(tc.status) {
				t.Fatalf("got %v, want unavailable, http_status, status %d", obj, tc.status)
			}
			ra, has := d["retry_after_ms"]
			switch {
			case tc.retryAfter == absent && has:
				t.Errorf("retry_after_ms %v, want none", ra)
			case tc.retryAfter != absent && ra != float64(tc.retryAfter):
				t.Errorf("retry_after_ms %v, want %d", ra, tc.retryAfter)
			}
		})
	}
	t.Run("a redirect to a refused scheme is denied, scheme", func(t *testing.T) {
		isErr, obj, raw := fetchRaw(t, cs, map[string]any{"url": status(302, "location", "ftp://127.0.0.1/file")})
		if kind, d := fetchError(t, isErr, obj); kind != "denied" || d["reason"] != "scheme" {
			t.Fatalf("got %v, want denied, scheme", obj)
		}
		if strings.Contains(raw, errorMarker) {
			t.Errorf("the redirect body reached the response:\n%s", raw)
		}
	})
	t.Run("204 is an empty page", func(t *testing.T) {
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": site.URL + "/no-content"})
		if isErr || obj["outcome"] != "ok" || obj["content"] != "" || obj["truncated"] != false {
			t.Fatalf("got %v, want ok with empty content", obj)
		}
		if _, has := obj["next_start_char"]; has {
			t.Errorf("next_start_char on an empty page: %v", obj)
		}
	})
}

// TestFetchMediaTypes checks REQ-PAGE-005: HTML and XHTML extracted,
// text/plain and text/markdown passed through, anything else (but PDF:
// TestFetchPDF) unsupported_content, media_type, naming the type
// (sniffed when the header is missing).
func TestFetchMediaTypes(t *testing.T) {
	const plain = "Line one of the notes.\n\n  Indented line two, with ünïcödé.\nLast line: 3 < 4 & <b>not markup</b>\n"
	const markdown = "# Notes\n\n- item *one*\n- item `two`\n\n[a link](https://example.org/)\n"
	const xhtmlText = "Extensible markup, read like HTML, with ünïcödé."
	xhtml := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<html xmlns="http://www.w3.org/1999/xhtml"><head><title>XHTML page</title></head><body><article><h1>XHTML page</h1>` +
		strings.Repeat("<p>"+xhtmlText+" The rest of this paragraph is plain filler, long enough for the extractor.</p>", 4) +
		`</article></body></html>`
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	type page struct {
		ct   string // "-" for no Content-Type at all
		body []byte
	}
	pages := map[string]page{
		"/plain":     {"text/plain; charset=utf-8", []byte(plain)},
		"/plain-up":  {"Text/Plain; Charset=UTF-8", []byte(plain)},
		"/markdown":  {"text/markdown; charset=utf-8", []byte(markdown)},
		"/xhtml":     {"application/xhtml+xml", []byte(xhtml)},
		"/zip":       {"application/zip", []byte("PK\x03\x04" + errorMarker)},
		"/png":       {"image/png", png},
		"/json":      {"application/json; charset=utf-8", []byte(`{"a": "` + errorMarker + `"}`)},
		"/png-bare":  {"-", png},
		"/html-bare": {"-", []byte(article("", "Sniffed", "A page without a Content-Type, sniffed as HTML."))},
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.ct == "-" {
			w.Header()["Content-Type"] = nil // no sniffing by net/http: no header at all
		} else {
			w.Header().Set("Content-Type", p.ct)
		}
		w.Write(p.body)
	}))
	defer site.Close()
	cs := fetchSession(t, []string{"127.0.0.1:" + portOfURL(site.URL)}, "", "[fetch]\nrobots_txt = false\n")
	for _, tc := range []struct {
		name, path string
		content    string // the exact content; "" when checked by contains
		contains   string
		title      string
		mediaType  string // unsupported_content, media_type with it
	}{
		{"text/plain is passed through", "/plain", plain, "", "", ""},
		{"text/plain in capitals is passed through", "/plain-up", plain, "", "", ""},
		{"text/markdown is passed through", "/markdown", markdown, "", "", ""},
		{"application/xhtml+xml is extracted", "/xhtml", "", xhtmlText, "XHTML page", ""},
		{"a page without Content-Type sniffed as HTML", "/html-bare", "", "sniffed as HTML", "Sniffed", ""},
		{"application/zip", "/zip", "", "", "", "application/zip"},
		{"image/png", "/png", "", "", "", "image/png"},
		{"application/json", "/json", "", "", "", "application/json"},
		{"a PNG without Content-Type, sniffed", "/png-bare", "", "", "", "image/png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj, raw := fetchRaw(t, cs, map[string]any{"url": site.URL + tc.path})
			if tc.mediaType != "" {
				kind, d := fetchError(t, isErr, obj)
				if kind != "unsupported_content" || d["reason"] != "media_type" || d["media_type"] != tc.mediaType {
					t.Fatalf("got %v, want unsupported_content, media_type %s", obj, tc.mediaType)
				}
				if strings.Contains(raw, errorMarker) {
					t.Errorf("the unsupported body reached the response:\n%s", raw)
				}
				return
			}
			if isErr || obj["outcome"] != "ok" {
				t.Fatalf("got %v", obj)
			}
			content, _ := obj["content"].(string)
			if tc.content != "" && content != tc.content {
				t.Errorf("content %q, want exactly %q", content, tc.content)
			}
			if tc.contains != "" && !strings.Contains(content, tc.contains) {
				t.Errorf("content lacks %q:\n%s", tc.contains, content)
			}
			if obj["title"] != tc.title {
				t.Errorf("title %q, want %q", obj["title"], tc.title)
			}
		})
	}
}

// TestFetchStrictMode checks REQ-SEC-021 over stdio: with
// fetch.strict_mode, a URL no search returned is denied, strict_mode
// before anything leaves; a URL on the allow list is read; a URL a search
// returned is admitted from then on (and its rank.Key equivalents), and
// only that URL.
func TestFetchStrictMode(t *testing.T) {
	listed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, article("", "Listed", "A page on a host the allow list names."))
	}))
	defer listed.Close()

	// The registry-only page: a name (no allow rule names it) on port 80,
	// resolved by a loopback DNS server to a loopback address that an
	// address rule admits at connect time. Binding port 80 needs root.
	const foundAddr = "127.83.41.7"
	const foundName = "found.test"
	foundURL := "http://" + foundName + "/article"
	var found *http.Server
	if os.Geteuid() == 0 {
		ln, err := net.Listen("tcp", foundAddr+":80")
		if err != nil {
			t.Fatalf("listen on %s:80: %v", foundAddr, err)
		}
		found = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, article("", "Found", "A page only a search result admits."))
		})}
		go found.Serve(ln)
		defer found.Close()
	}
	dns := dnstest.Start(t)
	dns.Set(t, foundName+". 60 IN A "+foundAddr)

	// A public name nothing resolves: admitted, the fetch goes out and
	// fails for the network.
	const returned = "https://returned.example.org/page"
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{
			{"url": returned, "title": "Returned page", "content": "a page the search returned"},
			{"url": foundURL, "title": "Found page", "content": "a page the search found"},
		}})
	}))
	defer searx.Close()

	cs := fetchSession(t,
		[]string{"127.0.0.1:" + portOfURL(listed.URL), "127.0.0.1:" + portOfURL(searx.URL), foundAddr + ":80"},
		dns.Addr,
		fmt.Sprintf("[fetch]\nstrict_mode = true\nrobots_txt = false\n[engines.searx]\ntype = \"searxng\"\nendpoint = %q\n", searx.URL))

	denied := func(t *testing.T, u string) {
		t.Helper()
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u})
		if kind, d := fetchError(t, isErr, obj); kind != "denied" || d["reason"] != "strict_mode" {
			t.Fatalf("%s: got %v, want denied, strict_mode", u, obj)
		}
	}
	// admitted checks that u passed strict mode: it went out and failed
	// for the network (nothing resolves its name).
	admitted := func(t *testing.T, u string) {
		t.Helper()
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u})
		if kind, d := fetchError(t, isErr, obj); kind != "unavailable" || d["reason"] != "network" {
			t.Fatalf("%s: got %v, want unavailable, network (admitted, then unreachable)", u, obj)
		}
	}

	t.Run("a URL never returned is denied", func(t *testing.T) {
		denied(t, "https://example.com/")
		denied(t, returned)
		denied(t, foundURL)
	})
	t.Run("a URL on the allow list is read", func(t *testing.T) {
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": listed.URL + "/any/path"})
		if isErr || obj["outcome"] != "ok" || obj["title"] != "Listed" {
			t.Fatalf("got %v", obj)
		}
	})
	isErr, res := callTool(t, cs, "web_search", map[string]any{"query": "strict mode"})
	got, _ := json.Marshal(res["results"])
	if isErr || !strings.Contains(string(got), `"url":"`+returned+`"`) || !strings.Contains(string(got), `"url":"`+foundURL+`"`) {
		t.Fatalf("web_search: %v, want both URLs returned", res)
	}
	t.Run("a URL a search returned is admitted", func(t *testing.T) {
		admitted(t, returned)
		admitted(t, "http://www.returned.example.org/page/?utm_source=newsletter#top") // the same rank.Key
		denied(t, "https://returned.example.org/other")
		denied(t, "https://example.com/")
	})
	t.Run("a URL a search returned is read", func(t *testing.T) {
		if found == nil {
			t.Skip("binding " + foundAddr + ":80 (a port of LIM-F8, which a page only the registry admits must use) needs root")
		}
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": foundURL})
		if isErr || obj["outcome"] != "ok" || obj["title"] != "Found" || obj["url"] != foundURL {
			t.Fatalf("got %v", obj)
		}
		denied(t, "http://"+foundName+"/elsewhere")
	})
}

// TestFetchContinuation checks REQ-FETCH-003 and REQ-FETCH-005 on a page
// of non-ASCII text (emoji, CJK, combining marks): windows of max_chars
// code points, read in turn from next_start_char, rebuild exactly the
// content one large window returns; start_char at or past the end is
// invalid_request.
func TestFetchContinuation(t *testing.T) {
	paragraphs := []string{
		"Emoji travel well: 🌊🐳 and a family 👩‍👩‍👧 with a flag 🇫🇮 beside the text.",
		"汉字和日本語のかな、한국어 문장도 함께 있습니다。これは長い段落です。",
		"Combining marks: e\u0301, a\u0308, n\u0303 and a\u030a stand beside precomposed é and ö.",
		"Plain ASCII prose about tides, harbours and the weather along this coast.",
		"Right-to-left words: שלום עולם and مرحبا بالعالم, then Ελληνικά and Русский.",
	}
	var body strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&body, "<p>%d. %s</p>", i, paragraphs[i%len(paragraphs)])
	}
	page := "<!DOCTYPE html><html><head><title>Long page</title></head><body><article><h1>Long page</h1>" + body.String() + "</article></body></html>"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer site.Close()
	cs := fetchSession(t, []string{"127.0.0.1:" + portOfURL(site.URL)}, "", "[fetch]\nrobots_txt = false\n")
	u := site.URL + "/long"

	isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u, "max_chars": limits.F2MaxCharsCeiling})
	if isErr || obj["outcome"] != "ok" || obj["truncated"] != false {
		t.Fatalf("one window: %v", obj)
	}
	whole := obj["content"].(string)
	total := utf8.RuneCountInString(whole)
	if total <= 3*500 || total >= limits.F2MaxCharsCeiling {
		t.Fatalf("the content is %d code points; the test wants several windows of 500 in one of LIM-F2", total)
	}
	for _, s := range []string{"🌊🐳", "汉字和日本語のかな", "한국어", "שלום עולם", "Ελληνικά"} {
		if !strings.Contains(whole, s) {
			t.Errorf("the content lacks %q", s)
		}
	}

	for _, window := range []int{500, 777} {
		t.Run(fmt.Sprintf("windows of %d", window), func(t *testing.T) {
			var rebuilt strings.Builder
			start := 0
			for calls := 0; ; calls++ {
				if calls > total/window+1 {
					t.Fatal("too many windows")
				}
				isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u, "max_chars": window, "start_char": start})
				if isErr || obj["outcome"] != "ok" {
					t.Fatalf("window at %d: %v", start, obj)
				}
				content := obj["content"].(string)
				n := utf8.RuneCountInString(content)
				rebuilt.WriteString(content)
				if obj["truncated"] != true {
					if _, has := obj["next_start_char"]; has || start+n != total {
						t.Fatalf("last window at %d: %d code points, next_start_char %v; the content has %d", start, n, obj["next_start_char"], total)
					}
					break
				}
				if n != window || obj["next_start_char"] != float64(start+n) {
					t.Fatalf("window at %d: %d code points, next_start_char %v; want %d and %d", start, n, obj["next_start_char"], window, start+window)
				}
				start += n
			}
			if rebuilt.String() != whole {
				t.Errorf("the windows rebuild %q\nwant %q", rebuilt.String(), whole)
			}
		})
	}

	t.Run("the last code point alone", func(t *testing.T) {
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u, "max_chars": 500, "start_char": total - 1})
		last, _ := utf8.DecodeLastRuneInString(whole)
		if isErr || obj["content"] != string(last) || obj["truncated"] != false {
			t.Fatalf("got %v, want %q", obj, string(last))
		}
	})
	for _, tc := range []struct {
		name  string
		args  map[string]any
		param string
	}{
		{"start_char at the end", map[string]any{"url": u, "start_char": total}, "start_char"},
		{"start_char past the end", map[string]any{"url": u, "start_char": total + 1000}, "start_char"},
		{"start_char negative", map[string]any{"url": u, "start_char": -1}, "start_char"},
		{"max_chars below 500", map[string]any{"url": u, "max_chars": 499}, "max_chars"},
		{"max_chars above LIM-F2", map[string]any{"url": u, "max_chars": limits.F2MaxCharsCeiling + 1}, "max_chars"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj, _ := fetchRaw(t, cs, tc.args)
			if kind, d := fetchError(t, isErr, obj); kind != "invalid_request" || d["parameter"] != tc.param {
				t.Fatalf("got %v, want invalid_request on %s", obj, tc.param)
			}
		})
	}
}
