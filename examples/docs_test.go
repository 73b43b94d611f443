package examples

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pelletier/go-toml/v2"

	egressconfig "github.com/rypsok/rypsok/egress/config"
	"github.com/rypsok/rypsok/egress/dialer"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/confcheck"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// The book's pages, relative to this package.
const (
	docsDir         = "../docs"
	troubleshooting = "../docs/troubleshooting.md"
	configuration   = "../docs/configuration.md"
	networkTutorial = "../docs/tutorial-network-team.md"
	operations      = "../docs/operations.md"
	bookIndex       = "../docs/README.md"
	projectREADME   = "../README.md"
)

// pendingPages are pages the book links to that other work is writing;
// a link to one of them is not an error while it is missing.
var pendingPages = []string{}

// bookPages returns docs/*.md and docs/design/*.md.
func bookPages(t *testing.T) []string {
	t.Helper()
	var pages []string
	for _, dir := range []string{docsDir, filepath.Join(docsDir, "design")} {
		found, err := filepath.Glob(filepath.Join(dir, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, found...)
	}
	return pages
}

// block is one fenced code block of a Markdown page.
type block struct {
	page   string
	line   int    // of the opening fence
	lang   string // the fence's info string
	marker string // X of a "<!-- check: X -->" line right above the fence
	text   string
}

var markerRE = regexp.MustCompile(`^<!--\s*check:\s*([a-z-]+)\s*-->$`)

// blocks returns the fenced code blocks of page (fences may be indented,
// as in a list item; the indentation is removed from the block's lines).
func blocks(t *testing.T, page string) []block {
	t.Helper()
	var out []block
	var cur *block
	var indent, prev string
	sc := bufio.NewScanner(strings.NewReader(string(read(t, page))))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &block{page: page, line: n, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
			indent = line[:len(line)-len(strings.TrimLeft(line, " "))]
			if m := markerRE.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
				cur.marker = m[1]
			}
		case cur != nil && trimmed == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += strings.TrimPrefix(line, indent) + "\n"
		}
		prev = line
	}
	if cur != nil {
		t.Errorf("%s:%d: a code block is not closed", page, cur.line)
	}
	return out
}

// TestBookTOMLParses parses every ```toml block of the book exactly as
// written, as a reader copies it. The line right above a block says how
// (docs/README.md, "Conventions"):
//
//	(none) or <!-- check: rypsok -->  a whole rypsok configuration
//	<!-- check: rypsok-fragment -->    part of one: its one problem is the missing config_version
//	<!-- check: rypsok-refused -->     a configuration rypsok must refuse
//	<!-- check: egress -->            a whole rypsok-egress configuration
//	<!-- check: egress-fragment -->   part of one: its one problem is the missing config_version
//	<!-- check: toml -->              TOML syntax only
//
// A tutorial's block is whole: a newcomer copies it into a file and runs
// it (the host tutorial's once failed `rypsok check`, config_version
// missing, while this test put the line before it).
func TestBookTOMLParses(t *testing.T) {
	checked := 0
	for _, page := range bookPages(t) {
		for _, b := range blocks(t, page) {
			if b.lang != "toml" {
				continue
			}
			checked++
			where := fmt.Sprintf("%s:%d", filepath.Base(b.page), b.line)
			if strings.HasSuffix(b.marker, "-fragment") && strings.HasPrefix(filepath.Base(b.page), "tutorial-") {
				t.Errorf("%s: a tutorial's block is copied as a file: make it whole (config_version = 1 first), not %q", where, b.marker)
			}
			var err error
			switch b.marker {
			case "", "rypsok":
				_, err = config.Parse([]byte(b.text), fakeEnv)
			case "rypsok-fragment":
				_, err = config.Parse([]byte(b.text), fakeEnv)
				err = fragmentProblems(err)
			case "rypsok-refused":
				if _, err := config.Parse([]byte(b.text), fakeEnv); err == nil {
					t.Errorf("%s: rypsok accepts a block marked rypsok-refused", where)
				}
				continue
			case "egress":
				_, err = egressconfig.Parse([]byte(b.text))
			case "egress-fragment":
				_, err = egressconfig.Parse([]byte(b.text))
				err = fragmentProblems(err)
			case "toml":
				var v map[string]any
				err = toml.Unmarshal([]byte(b.text), &v)
			default:
				t.Errorf("%s: unknown check marker %q", where, b.marker)
				continue
			}
			if err != nil {
				t.Errorf("%s: the block (checked as %q) is refused:\n%v", where, b.marker, err)
			}
		}
	}
	if checked < 5 {
		t.Errorf("checked only %d TOML blocks", checked)
	}
}

// fragmentProblems returns the problems of a fragment's parse error err
// other than the one a fragment has: config_version missing. A fragment
// without that problem is whole, and marked wrongly.
func fragmentProblems(err error) error {
	var others []error
	missing := false
	for _, e := range unjoin(err) {
		var fe *confcheck.FieldError
		if errors.As(e, &fe) && fe.Field == confcheck.VersionKey && strings.HasPrefix(fe.Problem, "missing") {
			missing = true
			continue
		}
		others = append(others, e)
	}
	if !missing {
		others = append(others, errors.New("it has config_version: mark it whole, not a fragment"))
	}
	return errors.Join(others...)
}

// unjoin returns the errors joined in err, err itself when it joins none.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// TestBookJSONIsTheContract parses every ```json block of the book, and
// every line of every ```jsonl block (log lines); a block marked
// <!-- check: none --> is skipped. It checks the response
// and error objects in it, however deeply nested (a JSON-RPC answer
// carries one in structuredContent), against the closed vocabularies: an
// outcome, notice codes and their reasons and keys, engine states, error
// kinds, their reasons and detail keys.
func TestBookJSONIsTheContract(t *testing.T) {
	checked := 0
	for _, page := range bookPages(t) {
		for _, b := range blocks(t, page) {
			if (b.lang != "json" && b.lang != "jsonl") || b.marker == "none" {
				continue
			}
			docs := []string{b.text}
			if b.lang == "jsonl" {
				docs = strings.Split(strings.TrimSpace(b.text), "\n")
			}
			for i, doc := range docs {
				where := fmt.Sprintf("%s:%d", filepath.Base(b.page), b.line+1+i)
				var v any
				if err := json.Unmarshal([]byte(doc), &v); err != nil {
					t.Errorf("%s: not JSON: %v", where, err)
					continue
				}
				checked++
				walkJSON(v, func(obj map[string]any) {
					for _, problem := range contractProblems(obj) {
						t.Errorf("%s: %s", where, problem)
					}
				})
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked only %d JSON blocks", checked)
	}
}

func walkJSON(v any, visit func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		visit(v)
		for _, c := range v {
			walkJSON(c, visit)
		}
	case []any:
		for _, c := range v {
			walkJSON(c, visit)
		}
	}
}

// contractProblems returns what is wrong with obj if it is a response
// object (it has an outcome) or an error object (an "error" with a kind).
func contractProblems(obj map[string]any) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if o, ok := obj["outcome"].(string); ok {
		if !slices.Contains(constants()["Outcome"], o) {
			bad("outcome %q is not in the vocabulary", o)
		}
		notices, _ := obj["notices"].([]any)
		for _, n := range notices {
			for _, p := range noticeProblems(n) {
				bad("%s", p)
			}
		}
		engines, _ := obj["engines"].([]any)
		for _, e := range engines {
			e, _ := e.(map[string]any)
			state, _ := e["state"].(string)
			if !slices.Contains(strs(response.EngineStates()), state) {
				bad("engine state %q is not in the vocabulary", state)
			}
			reason, has := e["reason"].(string)
			switch {
			case state == string(response.StateDisabled) && !slices.Contains(constants()["DisabledReason"], reason):
				bad("a disabled engine's reason %q is not in the vocabulary", reason)
			case state != string(response.StateDisabled) && has:
				bad("an engine in state %q has a reason", state)
			}
		}
	}
	if e, ok := obj["error"].(map[string]any); ok {
		kind, isTool := e["kind"].(string)
		if !isTool {
			return out // a JSON-RPC error: code and message
		}
		if !slices.Contains(strs(response.ErrorKinds()), kind) {
			bad("error kind %q is not in the vocabulary", kind)
		}
		detail, _ := e["detail"].(map[string]any)
		for k := range detail {
			if !slices.Contains(detailKeys(), k) {
				bad("detail key %q is not one of the error object's", k)
			}
		}
		if r, ok := detail["reason"].(string); ok && !slices.Contains(strs(response.ReasonsOf(response.ErrorKind(kind))), r) {
			bad("%q is not a reason of %s", r, kind)
		}
	}
	return out
}

func noticeProblems(n any) []string {
	notice, _ := n.(map[string]any)
	code, _ := notice["code"].(string)
	if !slices.Contains(strs(response.NoticeCodes()), code) {
		return []string{fmt.Sprintf("notice code %q is not in the vocabulary", code)}
	}
	var out []string
	for k := range notice {
		if !slices.Contains([]string{"code", "engine", "reason", "count"}, k) {
			out = append(out, fmt.Sprintf("notice %s has the key %q", code, k))
		}
	}
	reason, has := notice["reason"].(string)
	var allowed []string
	switch response.NoticeCode(code) {
	case response.NoticeEngineUnavailable:
		allowed = strs(response.EngineClasses())
	case response.NoticeEngineSkipped:
		allowed = strs(response.SkipReasons())
	case response.NoticeResultsDropped:
		allowed = strs(response.DropReasons())
	}
	switch {
	case allowed == nil && has:
		out = append(out, fmt.Sprintf("notice %s has a reason", code))
	case allowed != nil && !slices.Contains(allowed, reason):
		out = append(out, fmt.Sprintf("notice %s: %q is not one of its reasons", code, reason))
	}
	return out
}

// detailKeys are the JSON names of response.Detail's fields.
func detailKeys() []string {
	var keys []string
	rt := reflect.TypeFor[response.Detail]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// vocabularyTypes are the types of front/response whose constants are
// closed vocabularies the troubleshooting page must cover.
var vocabularyTypes = []string{"Outcome", "ErrorKind", "Reason", "NoticeCode", "EngineClass", "EngineState", "DisabledReason", "HTTPRefusal"}

// constants returns the string constants of front/response by type name,
// read from its source, so that a constant added later is seen even
// before anyone adds it to an exported list.
var constants = sync.OnceValue(func() map[string][]string {
	files, err := parseDir("../front/response")
	if err != nil {
		panic(err)
	}
	out := map[string][]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				typ, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						panic(err)
					}
					out[typ.Name] = append(out[typ.Name], s)
				}
			}
		}
	}
	return out
})

// parseDir parses the non-test Go files of dir.
func parseDir(dir string) ([]*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// section returns the lines of page under the heading whose text is
// title (a line "## title" or "### title"), up to the next heading of the
// same or a higher level; nil when there is none.
func section(page, title string) []string {
	var out []string
	level := 0
	for _, line := range strings.Split(page, "\n") {
		hashes := len(line) - len(strings.TrimLeft(line, "#"))
		isHeading := hashes > 0 && strings.HasPrefix(line[hashes:], " ")
		switch {
		case level == 0 && isHeading && strings.TrimSpace(line[hashes:]) == title:
			level = hashes
			out = append(out, line)
		case level > 0 && isHeading && hashes <= level:
			return out
		case level > 0:
			out = append(out, line)
		}
	}
	return out
}

// cells splits a Markdown table row into its trimmed cells; nil when line
// is not a row.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil
	}
	parts := strings.Split(line[1:len(line)-1], "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// hasRow reports whether lines hold a table row whose first cell is
// first (exactly, or as one of its code spans when first is a word) and
// whose other cells (at least two) are all filled: what it means, what
// to do.
func hasRow(lines []string, first string) bool {
	for _, l := range lines {
		c := cells(l)
		if len(c) < 3 {
			continue
		}
		if c[0] != first && !slices.Contains(codeSpans(c[0]), first) {
			continue
		}
		filled := true
		for _, rest := range c[1:] {
			filled = filled && rest != ""
		}
		return filled
	}
	return false
}

var codeSpanRE = regexp.MustCompile("`([^`]+)`")

func codeSpans(s string) []string {
	var out []string
	for _, m := range codeSpanRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestTroubleshootingCoversEveryWord checks that docs/troubleshooting.md
// has a filled row for every word of every closed vocabulary of
// front/response, in the section for it: the constants as the source
// declares them and the exported lists, so that a word added to either
// fails this test until it is documented.
func TestTroubleshootingCoversEveryWord(t *testing.T) {
	page := string(read(t, troubleshooting))
	consts := constants()
	for _, typ := range vocabularyTypes {
		if len(consts[typ]) == 0 {
			t.Fatalf("found no constant of type %s in front/response", typ)
		}
	}
	// Every listed word is a declared constant, and the other way round.
	lists := map[string][]string{
		"ErrorKind":   strs(response.ErrorKinds()),
		"NoticeCode":  strs(response.NoticeCodes()),
		"EngineClass": strs(response.EngineClasses()),
		"EngineState": strs(response.EngineStates()),
		"HTTPRefusal": strs(response.HTTPRefusals()),
	}
	var listedReasons []string
	for _, k := range response.ErrorKinds() {
		listedReasons = append(listedReasons, strs(response.ReasonsOf(k))...)
	}
	lists["Reason"] = append(append(listedReasons, strs(response.SkipReasons())...), strs(response.DropReasons())...)
	for typ, listed := range lists {
		for _, c := range consts[typ] {
			if !slices.Contains(listed, c) {
				t.Errorf("%s %q is declared but in no exported list of front/response: add it to one, then document it", typ, c)
			}
		}
	}

	need := func(sectionTitle, word string) {
		t.Helper()
		lines := section(page, sectionTitle)
		if lines == nil {
			t.Errorf("troubleshooting.md has no section %q", sectionTitle)
			return
		}
		if !hasRow(lines, word) {
			t.Errorf("troubleshooting.md, section %q: no filled row for `%s`", sectionTitle, word)
		}
	}
	for _, o := range consts["Outcome"] {
		need("Outcomes", o)
	}
	for _, k := range consts["ErrorKind"] {
		if section(page, "`"+k+"`") == nil {
			t.Errorf("troubleshooting.md has no section \"### `%s`\"", k)
		}
		for _, r := range response.ReasonsOf(response.ErrorKind(k)) {
			need("`"+k+"`", string(r))
		}
	}
	for _, c := range consts["NoticeCode"] {
		need("Notices", c)
	}
	for _, r := range response.SkipReasons() {
		need("Reasons of `engine_skipped`", string(r))
	}
	for _, r := range response.DropReasons() {
		need("Reasons of `results_dropped`", string(r))
	}
	for _, c := range consts["EngineClass"] {
		need("Engine error classes", c)
	}
	for _, s := range consts["EngineState"] {
		need("Engine states", s)
	}
	for _, r := range consts["DisabledReason"] {
		need("Why an engine is `disabled`", r)
	}
	for _, r := range consts["HTTPRefusal"] {
		need("Refusal reasons", r)
	}
}

// servedStatuses returns the statuses of docs/operations.md's table "as
// served" (the listener's contract as tested, one test per row).
func servedStatuses(t *testing.T) []string {
	t.Helper()
	page := string(read(t, operations))
	i := strings.Index(page, "The statuses as served")
	if i < 0 {
		t.Fatal(`operations.md has no "The statuses as served" table`)
	}
	var statuses []string
	inTable := false
	for _, line := range strings.Split(page[i:], "\n") {
		c := cells(line)
		switch {
		case c == nil && inTable:
			return statuses
		case c == nil:
			continue
		}
		inTable = true
		if _, err := strconv.Atoi(c[0]); err == nil {
			statuses = append(statuses, c[0])
		}
	}
	return statuses
}

// TestTroubleshootingCoversEveryStatus checks that every HTTP status the
// listener answers (operations.md's table as served) has a filled row in
// docs/troubleshooting.md's "HTTP statuses".
func TestTroubleshootingCoversEveryStatus(t *testing.T) {
	statuses := servedStatuses(t)
	if len(statuses) < 10 {
		t.Fatalf("read only %d statuses from operations.md: %v", len(statuses), statuses)
	}
	lines := section(string(read(t, troubleshooting)), "HTTP statuses")
	for _, s := range statuses {
		if !hasRow(lines, s) {
			t.Errorf("troubleshooting.md, HTTP statuses: no filled row for %s", s)
		}
	}
}

// schemaKeys returns the dotted keys of the TOML schema of the Go package
// in dir: the fields of its type `file`, followed into the struct types
// they name; a map's key is written "*" (the book writes <id>, <name>).
func schemaKeys(t *testing.T, dir, rootType string) []string {
	t.Helper()
	files, err := parseDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	structs := map[string]*ast.StructType{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
			return true
		})
	}
	root, ok := structs[rootType]
	if !ok {
		t.Fatalf("%s has no type %s (the TOML schema)", dir, rootType)
	}
	var keys []string
	var walk func(prefix string, st *ast.StructType)
	resolve := func(e ast.Expr) *ast.StructType {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		switch e := e.(type) {
		case *ast.StructType:
			return e
		case *ast.Ident:
			return structs[e.Name]
		}
		return nil
	}
	walk = func(prefix string, st *ast.StructType) {
		for _, f := range st.Fields.List {
			if f.Tag == nil {
				continue
			}
			tag, _ := strconv.Unquote(f.Tag.Value)
			name, _, _ := strings.Cut(reflect.StructTag(tag).Get("toml"), ",")
			if name == "" || name == "-" {
				continue
			}
			key := strings.TrimPrefix(prefix+"."+name, ".")
			if m, ok := f.Type.(*ast.MapType); ok {
				key += ".*"
				if inner := resolve(m.Value); inner != nil {
					walk(key, inner)
					continue
				}
			} else if inner := resolve(f.Type); inner != nil {
				walk(key, inner)
				continue
			}
			keys = append(keys, key)
		}
	}
	walk("", root)
	sort.Strings(keys)
	return keys
}

var placeholderRE = regexp.MustCompile(`<[^>]+>`)

// documentedKeys returns the keys in the first cells of the tables whose
// header's first cell is "Key" in lines, placeholders (<id>) written "*".
func documentedKeys(lines []string) map[string]bool {
	keys := map[string]bool{}
	inKeyTable := false
	for _, l := range lines {
		c := cells(l)
		switch {
		case c == nil:
			inKeyTable = false
		case c[0] == "Key":
			inKeyTable = true
		case inKeyTable && len(c) >= 3 && strings.HasPrefix(c[0], "`"):
			for _, k := range codeSpans(c[0]) {
				filled := true
				for _, rest := range c[1:] {
					filled = filled && rest != ""
				}
				if filled {
					keys[placeholderRE.ReplaceAllString(k, "*")] = true
				}
			}
		}
	}
	return keys
}

// TestConfigurationDocumentsEveryKey checks docs/configuration.md against
// both schemas, read from the source: every key of rypsok's file has a
// filled row in a "Key" table before the section "rypsok-egress's
// configuration", every key of rypsok-egress's file one in that section,
// and no row names a key that does not exist.
func TestConfigurationDocumentsEveryKey(t *testing.T) {
	page := string(read(t, configuration))
	const egressTitle = "rypsok-egress's configuration"
	egressLines := section(page, egressTitle)
	if egressLines == nil {
		t.Fatalf("configuration.md has no section %q", egressTitle)
	}
	i := strings.Index(page, egressLines[0])
	frontLines := strings.Split(page[:i], "\n")
	for _, c := range []struct {
		name  string
		dir   string
		root  string
		lines []string
	}{
		{"rypsok", "../front/config", "file", frontLines},
		{"rypsok-egress", "../shared/egressfile", "File", egressLines},
	} {
		keys := schemaKeys(t, c.dir, c.root)
		if len(keys) < 10 {
			t.Fatalf("read only %d keys from %s: %v", len(keys), c.dir, keys)
		}
		documented := documentedKeys(c.lines)
		for _, k := range keys {
			if !documented[k] {
				t.Errorf("configuration.md documents no %s key %s", c.name, strings.ReplaceAll(k, "*", "<…>"))
			}
		}
		for k := range documented {
			if !slices.Contains(keys, k) {
				t.Errorf("configuration.md documents %s key %s, which %s does not have", c.name, k, c.dir)
			}
		}
	}
}

// TestNetworkTutorialCoversTheContract checks that the network team's
// tutorial names every refusal reason and body end of the front/egress
// contract, every range of the egress's address table and every cause of
// its fail lines.
func TestNetworkTutorialCoversTheContract(t *testing.T) {
	var spans []string
	for _, line := range strings.Split(string(read(t, networkTutorial)), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "```") {
			spans = append(spans, codeSpans(line)...)
		}
	}
	var words []string
	words = append(words, strs(contract.Reasons())...)
	words = append(words, strs(contract.Ends())...)
	for _, r := range policy.Ranges() {
		words = append(words, r.String())
	}
	for _, c := range dialer.Causes() {
		words = append(words, string(c))
	}
	for _, w := range words {
		if !slices.Contains(spans, w) {
			t.Errorf("tutorial-network-team.md never names `%s`", w)
		}
	}
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestBookLinksResolve checks every relative link of the book, of
// examples/README.md and of the project's README.
func TestBookLinksResolve(t *testing.T) {
	pages := append(bookPages(t), "README.md", projectREADME)
	for _, page := range pages {
		for _, m := range linkRE.FindAllStringSubmatch(string(read(t, page)), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path := filepath.Join(filepath.Dir(page), target)
			if _, err := os.Stat(path); err != nil {
				if slices.Contains(pendingPages, filepath.Base(target)) {
					t.Logf("%s links to %s, which is still being written", page, target)
					continue
				}
				t.Errorf("%s: broken link %s", page, m[1])
			}
		}
	}
}

// TestBookIndexListsEveryPage checks that docs/README.md links every page
// of the book, the engines' admission records and the examples.
func TestBookIndexListsEveryPage(t *testing.T) {
	index := string(read(t, bookIndex))
	var links []string
	for _, m := range linkRE.FindAllStringSubmatch(index, -1) {
		target, _, _ := strings.Cut(m[1], "#")
		links = append(links, target)
	}
	want := []string{"engines/", "../examples/", "egress-contract.md"}
	for _, p := range bookPages(t) {
		rel, err := filepath.Rel(docsDir, p)
		if err != nil {
			t.Fatal(err)
		}
		if rel != "README.md" {
			want = append(want, filepath.ToSlash(rel))
		}
	}
	for _, w := range want {
		if !slices.Contains(links, w) {
			t.Errorf("docs/README.md does not link %s", w)
		}
	}
}
