package fuzz

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The seed corpora: testdata/fuzz/<FuzzName>/, one file per input in the
// format of `go test -fuzz` ("go test fuzz v1", then one Go literal per
// argument). They are written by TestWriteCorpus from real inputs, and
// checked by TestCorpus. Regenerate them after changing a target's
// arguments or the seeds below:
//
//	go test ./fuzz/ -run TestWriteCorpus -corpus.from=../../shared/fixtures
//
// (the directory holding engines/ and extraction/, relative to fuzz/).
// Regeneration replaces every file of each target's directory, failing
// inputs that `go test -fuzz` saved there included.

var corpusFrom = flag.String("corpus.from", "", "regenerate testdata/fuzz from the fixtures in this directory (holding engines/ and extraction/)")

// maxCorpusBytes bounds the seed corpora together.
const maxCorpusBytes = 2 << 20

// seed is one input of a target, with a file name saying what it is.
type seed struct {
	name string
	args []any
}

// encodeSeed writes args in the corpus file format of `go test -fuzz`.
func encodeSeed(args ...any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case string:
			b.WriteString("string(" + strconv.Quote(v) + ")\n")
		case []byte:
			b.WriteString("[]byte(" + strconv.Quote(string(v)) + ")\n")
		case uint8:
			fmt.Fprintf(&b, "byte(%d)\n", v)
		case uint16:
			fmt.Fprintf(&b, "uint16(%d)\n", v)
		default:
			panic(fmt.Sprintf("encodeSeed: %T", a))
		}
	}
	return b.Bytes()
}

// fuzzTargets lists the FuzzX functions of this package's test files.
func fuzzTargets(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") {
				names = append(names, fn.Name.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// TestCorpus checks the seed corpora: the fifteen targets of
// docs/design/decisions.md (fuzz targets), each with seeds, and no directory
// without its target; at most maxCorpusBytes in all.
func TestCorpus(t *testing.T) {
	targets := fuzzTargets(t)
	if len(targets) != 15 {
		t.Errorf("%d fuzz targets, want the fifteen of REQ-SEC-023: %v", len(targets), targets)
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "fuzz"))
	if err != nil {
		t.Fatal(err)
	}
	total := int64(0)
	seen := map[string]int{}
	for _, d := range dirs {
		if !slices.Contains(targets, d.Name()) {
			t.Errorf("testdata/fuzz/%s: no such target", d.Name())
		}
		files, err := os.ReadDir(filepath.Join("testdata", "fuzz", d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			info, err := f.Info()
			if err != nil {
				t.Fatal(err)
			}
			total += info.Size()
			seen[d.Name()]++
		}
	}
	for _, name := range targets {
		if seen[name] == 0 {
			t.Errorf("%s has no seed corpus in testdata/fuzz/%s", name, name)
		}
	}
	if total > maxCorpusBytes {
		t.Errorf("the seed corpora hold %d bytes, over %d", total, maxCorpusBytes)
	}
	t.Logf("%d bytes of seeds: %v", total, seen)
}

// TestWriteCorpus regenerates testdata/fuzz from the fixtures named by
// -corpus.from and the seeds written here.
func TestWriteCorpus(t *testing.T) {
	if *corpusFrom == "" {
		t.Skip("regenerate with -corpus.from=DIR (see corpus_test.go)")
	}
	fx := loadFixtures(t, *corpusFrom)
	all := map[string][]seed{
		"FuzzURLKey":           urlSeeds(fx),
		"FuzzStripTracking":    urlSeeds(fx),
		"FuzzCleanMarkupText":  textSeeds(fx, true),
		"FuzzCleanDecodedText": textSeeds(fx, true),
		"FuzzRemoveInvisible":  textSeeds(fx, false),
		"FuzzInstructionLike":  instructionSeeds(fx),
		"FuzzSecrets":          secretSeeds(fx),
		"FuzzExtractHTML":      pageSeeds(t, fx),
		"FuzzAgentURLPolicy":   agentSeeds(),
		"FuzzEgressRules":      ruleSeeds(),
		"FuzzRobotsTxt":        robotsSeeds(t),
		"FuzzEngineJSON":       engineSeeds(fx),
		"FuzzHeaderValues":     headerSeeds(),
		"FuzzConfig":           configSeeds(t),
		"FuzzPDF":              pdfSeeds(t),
	}
	for _, name := range fuzzTargets(t) {
		if len(all[name]) == 0 {
			t.Errorf("no seeds for %s", name)
		}
	}
	for target, seeds := range all {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		names := map[string]int{}
		for _, s := range seeds {
			name := fileName(s.name)
			if names[name]++; names[name] > 1 {
				name = fmt.Sprintf("%s-%d", name, names[name])
			}
			if err := os.WriteFile(filepath.Join(dir, name), encodeSeed(s.args...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d seeds", target, len(seeds))
	}
}

var unsafeName = regexp.MustCompile(`[^a-z0-9.-]+`)

func fileName(s string) string {
	s = strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(s), "-"), "-.")
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		s = "seed"
	}
	return s
}

// fixtures are the real inputs the seeds are drawn from.
type fixtures struct {
	engines map[string][]byte // engines/<name>
	urls    []string          // the URLs the engine fixtures hold
	texts   []string          // their titles and snippets
	pages   []page            // small extraction pages
}

type page struct {
	name, contentType string
	body              []byte
}

func loadFixtures(t *testing.T, dir string) fixtures {
	t.Helper()
	fx := fixtures{engines: map[string][]byte{}}
	files, err := filepath.Glob(filepath.Join(dir, "engines", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no engine fixtures in %s: %v", dir, err)
	}
	seen := map[string]bool{}
	for _, p := range files {
		name := filepath.Base(p)
		if name == "README.md" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx.engines[name] = b
		var v any
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		walkStrings(v, func(s string) {
			switch {
			case seen[s]:
			case strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"):
				fx.urls = append(fx.urls, s)
			case len(s) > 12 && strings.ContainsAny(s, " "):
				fx.texts = append(fx.texts, s)
			}
			seen[s] = true
		})
	}
	// Small pages of the Mozilla readability set (UTF-8), and small
	// trafilatura pages that declare another charset.
	moz, _ := filepath.Glob(filepath.Join(dir, "extraction", "mozilla", "*", "source.html"))
	for _, p := range moz {
		if b, err := os.ReadFile(p); err == nil && len(b) <= 15<<10 {
			fx.pages = append(fx.pages, page{"mozilla-" + filepath.Base(filepath.Dir(p)), "text/html", b})
		}
	}
	for _, p := range []struct{ file, ct string }{
		{"love-hina.ch.0409.html", "text/html; charset=iso-8859-1"},
		{"next2games.de.anno.html", ""},
		{"auto-presse.de-minisuv.html", "text/html"},
	} {
		if b, err := os.ReadFile(filepath.Join(dir, "extraction", "trafilatura", "pages", p.file)); err == nil {
			fx.pages = append(fx.pages, page{"trafilatura-" + p.file, p.ct, b})
		}
	}
	if len(fx.pages) == 0 {
		t.Fatalf("no extraction pages in %s", dir)
	}
	return fx
}

func walkStrings(v any, fn func(string)) {
	switch v := v.(type) {
	case string:
		fn(v)
	case []any:
		for _, e := range v {
			walkStrings(e, fn)
		}
	case map[string]any:
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range v {
				if !yield(k) {
					return
				}
			}
		}) {
			walkStrings(v[k], fn)
		}
	}
}
