//go:build quality

package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// go test -tags quality -run TestQuality ./front/extract/ -args -out DIR [-extractor NAME]
// writes DIR/mozilla.json and DIR/trafilatura.json for score.py and
// score_snippets.py (make extract-score).
var (
	outDir    = flag.String("out", "", "directory for the prediction files")
	extractor = flag.String("extractor", extractorRypsok, "what extracts: rypsok, readability (plain readability + html-to-markdown) or go-trafilatura (reference)")
	fixtures  = flag.String("fixtures", "../../../shared/fixtures/extraction", "extraction dev sets")
)

// The extractors TestQuality and TestPeakRSS can measure.
const (
	extractorRypsok      = "rypsok"
	extractorReadability = "readability"
	extractorTrafilatura = "go-trafilatura"
)

type pred struct {
	ArticleBody string `json:"articleBody"`
}

func TestQuality(t *testing.T) {
	if *outDir == "" {
		t.Fatal("-out DIR is required")
	}
	switch *extractor {
	case extractorRypsok, extractorReadability, extractorTrafilatura:
	default:
		t.Fatalf("-extractor %q: want %s, %s or %s", *extractor, extractorRypsok, extractorReadability, extractorTrafilatura)
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fake, _ := url.Parse("http://fakehost/test/page.html")

	// Mozilla set
	names, err := filepath.Glob(filepath.Join(*fixtures, "mozilla", "*", "source.html"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no mozilla pages under %s", *fixtures)
	}
	sort.Strings(names)
	docs := make(map[string]string, len(names))
	for _, name := range names {
		docs[filepath.Base(filepath.Dir(name))] = readPage(t, name)
	}
	out := map[string]pred{}
	var bytesIn int
	start := time.Now()
	partial := 0
	for id, doc := range docs {
		bytesIn += len(doc)
		md, p := run(t, doc, fake)
		if p {
			partial++
		}
		out[id] = pred{md}
	}
	el := time.Since(start)
	t.Logf("%s mozilla: %d pages, %.1f MB in %v: %.1f pages/s, %.1f MB/s single-threaded; %d partial",
		*extractor, len(docs), float64(bytesIn)/1e6, el.Round(time.Millisecond),
		float64(len(docs))/el.Seconds(), float64(bytesIn)/1e6/el.Seconds(), partial)
	write(t, "mozilla.json", out)

	// trafilatura set
	var cases map[string]struct {
		URL string `json:"url"`
	}
	b, err := os.ReadFile(filepath.Join(*fixtures, "trafilatura", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	out = map[string]pred{}
	partial = 0
	bytesIn = 0
	start = time.Now()
	for id, c := range cases {
		doc := readPage(t, filepath.Join(*fixtures, "trafilatura", "pages", id+".html"))
		u := fake
		if c.URL != "" {
			if pu, err := url.Parse(c.URL); err == nil {
				u = pu
			}
		}
		bytesIn += len(doc)
		md, p := run(t, doc, u)
		if p {
			partial++
		}
		out[id] = pred{md}
	}
	el = time.Since(start)
	t.Logf("%s trafilatura: %d pages, %.1f MB in %v: %.1f pages/s, %.1f MB/s single-threaded; %d partial",
		*extractor, len(cases), float64(bytesIn)/1e6, el.Round(time.Millisecond),
		float64(len(cases))/el.Seconds(), float64(bytesIn)/1e6/el.Seconds(), partial)
	write(t, "trafilatura.json", out)
}

func run(t *testing.T, doc string, u *url.URL) (string, bool) {
	switch *extractor {
	case extractorReadability:
		return plain(doc, u), false
	case extractorTrafilatura:
		return goTrafilatura(doc, u), false
	}
	r, err := HTML(context.Background(), doc, u)
	if err != nil {
		return "", false
	}
	// the tool returns the title in its own field; it is not scored
	return r.Markdown, r.Partial
}

// plain is the reference pipeline of the fixtures' READMEs.
func plain(doc string, u *url.URL) string {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return ""
	}
	p := readability.NewParser()
	art, err := p.ParseAndMutate(root, u)
	if err != nil || art.Node == nil {
		return ""
	}
	var buf bytes.Buffer
	if err := art.RenderHTML(&buf); err != nil {
		return ""
	}
	conv := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin()))
	md, err := conv.ConvertString(buf.String(), converter.WithDomain(u.String()))
	if err != nil {
		return ""
	}
	return md
}

// goTrafilatura is go-trafilatura's text with its fallback extractors on
// and comments left out, as its README recommends for articles; it parses
// the page itself.
func goTrafilatura(doc string, u *url.URL) string {
	r, err := trafilatura.Extract(strings.NewReader(doc), trafilatura.Options{
		OriginalURL:     u,
		EnableFallback:  true,
		ExcludeComments: true,
	})
	if err != nil || r == nil {
		return ""
	}
	return r.ContentText
}

// readPage reads and decodes one page of the dev sets.
func readPage(t *testing.T, name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Decode(b, "text/html")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func write(t *testing.T, name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*outDir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPeakRSS extracts the largest page of the dev sets (by bytes) with
// -extractor and reports the process's peak RSS (VmHWM): make
// extract-score runs it once per extractor, each in its own process.
func TestPeakRSS(t *testing.T) {
	var largest string
	var size int64
	for _, glob := range []string{"mozilla/*/source.html", "trafilatura/pages/*.html"} {
		names, err := filepath.Glob(filepath.Join(*fixtures, glob))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if fi, err := os.Stat(name); err == nil && fi.Size() > size {
				largest, size = name, fi.Size()
			}
		}
	}
	if largest == "" {
		t.Fatalf("no pages under %s", *fixtures)
	}
	doc := readPage(t, largest)
	u, _ := url.Parse("https://example.org/a")
	name, err := filepath.Rel(*fixtures, largest)
	if err != nil {
		name = largest
	}
	start := time.Now()
	md, _ := run(t, doc, u)
	t.Logf("%s, largest page (%s, %.1f MB): %v, %d chars; peak RSS %s",
		*extractor, name, float64(size)/1e6, time.Since(start).Round(time.Millisecond), len(md), vmHWM())
}

// TestPeakRSS5MiB extracts one synthetic 5 MiB article and reports the
// process's peak RSS (VmHWM) and the Go heap after it.
func TestPeakRSS5MiB(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Big</title></head><body><nav><a href=/>Home</a></nav><article><h1>Big</h1>")
	para := "<p>Lorem ipsum dolor sit amet, <a href=\"/x\">consectetur</a> adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam.</p>\n"
	for b.Len() < 5<<20 {
		b.WriteString(para)
	}
	b.WriteString("</article></body></html>")
	doc := b.String()
	u, _ := url.Parse("https://example.org/a")
	start := time.Now()
	r, err := HTML(context.Background(), doc, u)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("5 MiB page: %v, %d chars of Markdown; peak RSS %s; Go heap total alloc %.0f MiB",
		time.Since(start).Round(time.Millisecond), len(r.Markdown), vmHWM(), float64(ms.TotalAlloc)/(1<<20))
}

func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "unknown"
}
