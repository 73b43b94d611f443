package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rypsok/rypsok/front/pdf/pdftest"
	"github.com/rypsok/rypsok/shared/limits"
)

// hostilePage is a page of about size bytes in one of the shapes that
// once took the front past its memory ceiling: what a tree costs is not
// what its bytes cost.
func hostilePage(shape string, size int) []byte {
	var b strings.Builder
	b.Grow(size)
	b.WriteString("<!doctype html><html><head><title>t</title></head><body>")
	unit := func(i int) string {
		switch shape {
		case "tag-dense":
			return "<p>a</p>"
		case "formatting":
			return "<p><b><i><u><s>x</p>"
		case "open-formatting": // every paragraph reopens the 500 <b> left open before it
			if i < 500 {
				return "<p><b id=" + strconv.Itoa(i) + "></p>"
			}
			return "<p>x</p>"
		case "deeply-nested":
			return "<div><span>x"
		case "attribute-heavy":
			return `<i a b c d e f g h j k l m n o q r t v w y z data-x="1">x</i>`
		case "entity-heavy":
			return "<p>&amp;&lt;&gt;&quot;&#39;&#x41;&copy;&nbsp;&hellip;</p>"
		case "cells":
			return "<table><td>x"
		case "comments":
			return "<!---->x"
		case "text-runs":
			return "a</x>"
		case "html-attributes":
			return "<html a" + strconv.Itoa(i) + ">"
		}
		panic(shape)
	}
	for i := 0; b.Len() < size; i++ {
		b.WriteString(unit(i))
	}
	return []byte(b.String())
}

// TestHostilePagesKeepTheFrontUnderItsCeiling is the attack of issue 15
// as it was made: web_fetch of 1-5 MiB pages of every costly shape,
// LIM-C8 at once, against the shipped binary, and the same with PDF
// documents of the costly shapes of pdftest.Costly (gigabyte Flate bombs,
// streams at LIM-F11's share, LIM-F12's objects, operand runs). Each call answers (a page
// over the parser's budget is extracted from what was kept, or answers an
// error outcome), and the front's peak RSS stays under its ceiling.
func TestHostilePagesKeepTheFrontUnderItsCeiling(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	shapes := []string{"tag-dense", "formatting", "open-formatting", "deeply-nested", "attribute-heavy",
		"entity-heavy", "cells", "comments", "text-runs", "html-attributes",
		"pdf-bomb", "pdf-text", "pdf-objects", "pdf-operands"}
	sizes := []int{1 << 20, 3 << 20, limits.F3BodyBytes - 1024, limits.F3BodyBytes - 2048}
	if len(sizes) != limits.C8FetchInFlight {
		t.Fatalf("%d sizes for LIM-C8 %d", len(sizes), limits.C8FetchInFlight)
	}
	var mu sync.Mutex
	pages := map[string][]byte{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		var shape string
		var size int
		if _, err := fmt.Sscanf(r.URL.Path, "/%d/", &size); err != nil { // /size/i/shape
			http.NotFound(w, r)
			return
		}
		shape = r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		mu.Lock()
		page, ok := pages[r.URL.Path]
		if !ok {
			if pdfShape, isPDF := strings.CutPrefix(shape, "pdf-"); isPDF {
				page = pdftest.Costly(pdfShape, size)
			} else {
				page = hostilePage(shape, size)
			}
			pages[r.URL.Path] = page
		}
		mu.Unlock()
		if strings.HasPrefix(shape, "pdf-") {
			w.Header().Set("Content-Type", "application/pdf")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write(page)
	}))
	defer site.Close()
	cfg := filepath.Join(t.TempDir(), "rypsok.toml")
	toml := fmt.Sprintf(`config_version = 1
[egress]
dns_servers = ["127.0.0.1:1"]
allow_http = true
allow = ["127.0.0.1:%s"]
`, portOfURL(site.URL))
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, cmd, _ := session(t, "RYPSOK_CONFIG="+cfg)

	// Shape by shape, LIM-C8 pages at once (1, 3 and 5 MiB, and 5 MiB
	// again), the peak reset before each (clear_refs 5 resets VmHWM).
	worst, worstShape := 0, ""
	for _, shape := range shapes {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", cmd.Process.Pid), []byte("5"), 0); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i, size := range sizes {
			wg.Go(func() {
				u := fmt.Sprintf("%s/%d/%d/%s", site.URL, size, i, shape)
				isErr, obj := callTool(t, cs, "web_fetch", map[string]any{"url": u})
				e, _ := obj["error"].(map[string]any)
				switch {
				case !isErr && obj["outcome"] == "ok":
				case isErr && e["kind"] == "unavailable" && e["detail"].(map[string]any)["reason"] == "deadline":
					t.Logf("%s reached its deadline", u) // a busy machine; one outcome all the same
				case isErr && e["kind"] == "unsupported_content":
					t.Logf("%s: %v", u, e["message"]) // nothing readable before the parser's budget
				default:
					t.Errorf("%s: %.300v", u, obj)
				}
			})
		}
		wg.Wait()
		peak := peakKiB(t, cmd.Process.Pid)
		t.Logf("%-16s front peak RSS %6d KiB", shape, peak)
		if peak > worst {
			worst, worstShape = peak, shape
		}
	}
	t.Logf("worst shape %s: front peak RSS %d KiB (ceiling %d), %d pages at once", worstShape, worst, frontCeilingKiB, len(sizes))
	if worst > frontCeilingKiB {
		t.Errorf("front peak RSS %d KiB over %d (%s)", worst, frontCeilingKiB, worstShape)
	}
}
