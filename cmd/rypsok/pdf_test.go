package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/pdf/pdftest"
)

// TestFetchPDF checks REQ-PAGE-013 over stdio: a multi-page PDF read whole
// through continuation (windows rebuild exactly what one window returns,
// every page's text in order, a separator between pages, the title from
// the document information); application/octet-stream and a missing
// Content-Type read as PDF when the body starts %PDF-; a scanned
// (image-only) PDF and an encrypted one are unsupported_content,
// extraction_failed saying why; a truncated one gives its first pages with
// extraction_partial; a Flate bomb answers within its bounds; an
// octet-stream body that is no PDF stays unsupported_content, media_type.
func TestFetchPDF(t *testing.T) {
	topics := []string{"tides", "harbours", "the weather", "lighthouses", "ferries"}
	places := []string{"Oban", "Mallaig", "Ullapool", "Stornoway", "Kirkwall", "Lerwick", "Wick", "Thurso", "Scrabster", "Portree", "Tobermory", "Campbeltown"}
	var pages [][]string
	for i := 1; i <= 12; i++ {
		var paras []string
		for j := 1; j <= 4; j++ {
			paras = append(paras, fmt.Sprintf("Page %d paragraph %d tells of %s,\nand of the coast near %s.", i, j, topics[(i+j)%5], places[i-1]))
		}
		pages = append(pages, paras)
	}
	report := pdftest.Doc{Title: "Coastal Report", Pages: pdftest.Paragraphs(pages...)}.Bytes()
	short := pdftest.Doc{Pages: pdftest.Paragraphs([]string{"A short octet-stream document."})}.Bytes()
	cut := report[:bytes.Index(report, []byte("7 0 obj"))+len("7 0 obj\n<< /Length 9")] // ends inside page 2's content
	type page struct {
		ct   string
		body []byte
	}
	files := map[string]page{
		"/report.pdf": {"application/pdf", report},
		"/octet":      {"application/octet-stream", short},
		"/bare":       {"-", short},
		"/scan.pdf":   {"application/pdf", pdftest.ImageOnly(2)},
		"/locked.pdf": {"application/pdf", pdftest.Encrypted()},
		"/cut.pdf":    {"application/pdf", cut},
		"/bomb.pdf":   {"application/pdf", pdftest.Bomb(1<<30, 1)},
		"/bin":        {"application/octet-stream", []byte("\x00\x01binary " + errorMarker)},
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.ct == "-" {
			w.Header()["Content-Type"] = nil
		} else {
			w.Header().Set("Content-Type", p.ct)
		}
		w.Write(p.body)
	}))
	defer site.Close()
	cs := fetchSession(t, []string{"127.0.0.1:" + portOfURL(site.URL)}, "", "[fetch]\nrobots_txt = false\n")

	t.Run("a multi-page PDF read whole through continuation", func(t *testing.T) {
		u := site.URL + "/report.pdf"
		isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u, "max_chars": 20000})
		if isErr || obj["outcome"] != "ok" || obj["truncated"] != false || obj["title"] != "Coastal Report" {
			t.Fatalf("one window: %v", obj)
		}
		whole := obj["content"].(string)
		if n := strings.Count(whole, "\n\n---\n\n"); n != 11 {
			t.Errorf("%d page separators, want 11", n)
		}
		at := 0
		for i := 1; i <= 12; i++ {
			want := fmt.Sprintf("Page %d paragraph 4 tells of %s, and of the coast near %s.", i, topics[(i+4)%5], places[i-1])
			j := strings.Index(whole[at:], want)
			if j < 0 {
				t.Fatalf("the content lacks %q after offset %d:\n%s", want, at, whole)
			}
			at += j
		}
		var rebuilt strings.Builder
		start := 0
		for calls := 0; ; calls++ {
			if calls > 20 {
				t.Fatal("too many windows")
			}
			isErr, obj, _ := fetchRaw(t, cs, map[string]any{"url": u, "max_chars": 1000, "start_char": start})
			if isErr || obj["outcome"] != "ok" {
				t.Fatalf("window at %d: %v", start, obj)
			}
			c := obj["content"].(string)
			rebuilt.WriteString(c)
			if obj["truncated"] != true {
				break
			}
			start += utf8.RuneCountInString(c)
			if obj["next_start_char"] != float64(start) {
				t.Fatalf("next_start_char %v, want %d", obj["next_start_char"], start)
			}
		}
		if rebuilt.String() != whole {
			t.Errorf("the windows rebuild\n%q\nwant\n%q", rebuilt.String(), whole)
		}
	})

	for _, tc := range []struct {
		name, path string
		contains   string // an ok answer holding it
		notice     string // ...with this notice
		reason     string // else unsupported_content with this reason
		message    string // ...whose message holds this
	}{
		{"octet-stream that starts %PDF-", "/octet", "A short octet-stream document.", "", "", ""},
		{"no Content-Type, sniffed", "/bare", "A short octet-stream document.", "", "", ""},
		{"a truncated PDF", "/cut.pdf", "Page 1 paragraph 4", "extraction_partial", "", ""},
		{"a scanned PDF", "/scan.pdf", "", "", "extraction_failed", "no text layer"},
		{"an encrypted PDF", "/locked.pdf", "", "", "extraction_failed", "encrypted"},
		{"a Flate bomb", "/bomb.pdf", "", "", "extraction_failed", ""},
		{"octet-stream that is no PDF", "/bin", "", "", "media_type", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isErr, obj, raw := fetchRaw(t, cs, map[string]any{"url": site.URL + tc.path})
			if tc.reason != "" {
				kind, d := fetchError(t, isErr, obj)
				msg, _ := obj["error"].(map[string]any)["message"].(string)
				if kind != "unsupported_content" || d["reason"] != tc.reason || !strings.Contains(msg, tc.message) {
					t.Fatalf("got %v, want unsupported_content, %s saying %q", obj, tc.reason, tc.message)
				}
				if strings.Contains(raw, errorMarker) {
					t.Errorf("the body reached the response:\n%s", raw)
				}
				return
			}
			if isErr || obj["outcome"] != "ok" || !strings.Contains(obj["content"].(string), tc.contains) {
				t.Fatalf("got %v, want content holding %q", obj, tc.contains)
			}
			notices, _ := json.Marshal(obj["notices"])
			if tc.notice != "" && !strings.Contains(string(notices), `"code":"`+tc.notice+`"`) {
				t.Errorf("notices %s lack %s", notices, tc.notice)
			}
			if tc.notice == "" && strings.Contains(string(notices), "extraction_partial") {
				t.Errorf("notices %s: a whole document is not partial", notices)
			}
		})
	}
}
