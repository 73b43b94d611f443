package examples

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The repository's root and its design's requirements, relative to this
// package.
const (
	repoRoot     = ".."
	requirements = "../docs/design/requirements.md"
)

// sourceFiles returns the repository's .go and .md files, relative to
// this package: what a reader may find a citation in. Dependencies and
// build output are not the repository's text.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext == ".go" || ext == ".md" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found only %d .go and .md files under %s", len(files), repoRoot)
	}
	return files
}

// definitionRE is a requirement's heading in requirements.md.
var definitionRE = regexp.MustCompile(`^### (REQ-[A-Z]+-[0-9]{3}): \S`)

// definedRequirements returns the ids requirements.md defines: a heading
// "### REQ-AREA-NNN: title" followed by a paragraph saying what it
// requires.
func definedRequirements(t *testing.T) map[string]bool {
	t.Helper()
	lines := strings.Split(string(read(t, requirements)), "\n")
	defined := map[string]bool{}
	for i, line := range lines {
		m := definitionRE.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, "### ") {
				t.Errorf("requirements.md:%d: a heading that defines no requirement: %q", i+1, line)
			}
			continue
		}
		if defined[m[1]] {
			t.Errorf("requirements.md:%d: %s is defined twice", i+1, m[1])
		}
		defined[m[1]] = true
		if i+2 >= len(lines) || lines[i+1] != "" || strings.TrimSpace(lines[i+2]) == "" || strings.HasPrefix(lines[i+2], "#") {
			t.Errorf("requirements.md:%d: %s has no paragraph saying what it requires", i+1, m[1])
		}
	}
	return defined
}

// citationRE is a cited requirement id, or a range of them: "REQ-X-002",
// "REQ-X-001..007", "REQ-X-004/006", "REQ-X-013 to -015", "REQ-X-002 to
// REQ-X-007".
var citationRE = regexp.MustCompile(`REQ-([A-Z]+)-([0-9]{3})(?:(?:\.\.|/| to -| to REQ-[A-Z]+-)([0-9]{3}))?`)

// citedRequirements returns every requirement id text cites, ranges
// expanded ("REQ-X-001..003" cites 001, 002 and 003; "004/006" only the
// two).
func citedRequirements(text string) []string {
	var ids []string
	for _, m := range citationRE.FindAllStringSubmatch(text, -1) {
		from, _ := strconv.Atoi(m[2])
		to := from
		if m[3] != "" {
			to, _ = strconv.Atoi(m[3])
		}
		for n := from; n <= to; n++ {
			if strings.Contains(m[0], "/") && n != from && n != to {
				continue
			}
			ids = append(ids, fmt.Sprintf("REQ-%s-%03d", m[1], n))
		}
	}
	return ids
}

func TestCitedRequirements(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"one id (REQ-RANK-002).", []string{"REQ-RANK-002"}},
		{"two: REQ-RES-004 and REQ-RES-005", []string{"REQ-RES-004", "REQ-RES-005"}},
		{"a range REQ-CACHE-001..003", []string{"REQ-CACHE-001", "REQ-CACHE-002", "REQ-CACHE-003"}},
		{"REQ-ENG-013 to -015", []string{"REQ-ENG-013", "REQ-ENG-014", "REQ-ENG-015"}},
		{"REQ-RANK-004 to REQ-RANK-005", []string{"REQ-RANK-004", "REQ-RANK-005"}},
		{"two of a kind REQ-TEST-004/006", []string{"REQ-TEST-004", "REQ-TEST-006"}},
		{"an area without a number (REQ-PERF: 128 MiB)", nil},
	} {
		if got := citedRequirements(c.text); !slices.Equal(got, c.want) {
			t.Errorf("citedRequirements(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestEveryCitedRequirementIsDefined checks that every REQ id cited in
// the repository's .go and .md files is defined in
// docs/design/requirements.md, so that a reader can look up what the
// code claims to follow, and that every definition is cited somewhere
// else, so that the page holds no requirement nothing follows.
func TestEveryCitedRequirementIsDefined(t *testing.T) {
	defined := definedRequirements(t)
	if len(defined) < 40 {
		t.Fatalf("requirements.md defines only %d requirements", len(defined))
	}
	citedOutside := map[string]bool{}
	for _, f := range sourceFiles(t) {
		if filepath.Clean(f) == filepath.Clean(requirements) || filepath.Base(f) == "design_test.go" {
			continue
		}
		for _, id := range citedRequirements(string(read(t, f))) {
			citedOutside[id] = true
			if !defined[id] {
				t.Errorf("%s cites %s, which docs/design/requirements.md does not define", f, id)
			}
		}
	}
	for id := range defined {
		if !citedOutside[id] {
			t.Errorf("requirements.md defines %s, which nothing in the repository cites", id)
		}
	}
}

// Citations of documents the repository does not hold: the external
// design's sections, its decisions page and RFCs, its limits and style
// pages, the engine fixtures' notes kept beside the repository.
var outsideRE = regexp.MustCompile(`DECISIONS(\.md)?\b|\bRFC 0[0-9]{2}\b|[Ee]xternal[- ]design|shared/spec|LIMITS\.md|STYLE\.md|fixtures README`)

// outsidePathRE is a path out of the repository, or into the folder of
// data kept beside it, which a page must not send a reader to.
var outsidePathRE = regexp.MustCompile(`\.\./shared/|shared/fixtures`)

// standardRE is a public standard a section sign may follow on its line:
// an RFC of the IETF's series, or the HTML standard.
var standardRE = regexp.MustCompile(`RFC [1-9][0-9]{3}|HTML`)

// outsideCitations returns what line cites outside the repository.
func outsideCitations(line string, markdown bool) []string {
	var out []string
	out = append(out, outsideRE.FindAllString(line, -1)...)
	if markdown {
		out = append(out, outsidePathRE.FindAllString(line, -1)...)
	}
	for i := strings.Index(line, "§"); i >= 0; {
		if !standardRE.MatchString(line[:i]) {
			out = append(out, "a section sign without the standard it belongs to")
			break
		}
		j := strings.Index(line[i+len("§"):], "§")
		if j < 0 {
			break
		}
		i += len("§") + j
	}
	return out
}

func TestOutsideCitations(t *testing.T) {
	for _, c := range []struct {
		line     string
		markdown bool
		want     int
	}{
		{"// the search pipeline (docs/design: search pipeline)", false, 0},
		{"// the search pipeline of §6", false, 1},
		{"// a breaker (DECISIONS.md §3)", false, 2},
		{"// secrets (RFC 009 as amended)", false, 1},
		{"// disallowed (RFC 9309 §2.3.1.4)", false, 0},
		{"// not UTF-16 (HTML §13.2.3.3)", false, 0},
		{"// RFC 7519 (JWT) §7.2, RFC 7515 (JWS) §3.1, §4.1.1", false, 0},
		{"see `../shared/spec/DECISIONS.md`", true, 3},
		{"as summarised in `shared/fixtures/engines/README.md` §3", true, 2},
		{`fixtures = flag.String("fixtures", "../../../shared/fixtures/extraction", "dev sets")`, false, 0},
	} {
		if got := outsideCitations(c.line, c.markdown); len(got) != c.want {
			t.Errorf("outsideCitations(%q) = %q, want %d", c.line, got, c.want)
		}
	}
}

// TestNoCitationLeavesTheRepository checks that no .go or .md file of the
// repository cites a document it does not hold (the external design's
// sections, DECISIONS.md, its RFCs, notes kept beside the repository):
// such a citation is a dead link for every reader. The design is
// docs/design/; a section sign is for a public standard named on its
// line. Pages may not point out of the repository; code may name the
// folder of the extraction dev sets (kept beside it) as a default path.
func TestNoCitationLeavesTheRepository(t *testing.T) {
	for _, f := range sourceFiles(t) {
		if filepath.Base(f) == "design_test.go" {
			continue
		}
		markdown := filepath.Ext(f) == ".md"
		for i, line := range strings.Split(string(read(t, f)), "\n") {
			for _, c := range outsideCitations(line, markdown) {
				t.Errorf("%s:%d cites outside the repository (%s): %s", f, i+1, c, strings.TrimSpace(line))
			}
		}
	}
}
