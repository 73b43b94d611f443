package confcheck

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// schema is a small schema with each kind of field.
type schema struct {
	Version int               `toml:"config_version"`
	Name    string            `toml:"name"`
	Search  searchTable       `toml:"search"`
	Items   map[string]item   `toml:"items"`
	Labels  map[string]string `toml:"labels"`
}

type searchTable struct {
	MaxResults int      `toml:"max_results"`
	Deadline   int64    `toml:"deadline_ms"`
	Languages  []string `toml:"languages"`
	Strict     bool     `toml:"strict"`
}

type item struct {
	Weight *float64 `toml:"weight"`
	Type   string   `toml:"type"`
}

func defaults() schema {
	return schema{Name: "default", Search: searchTable{MaxResults: 10, Languages: []string{"en"}}}
}

// decode reads doc and decodes it over the defaults, returning the
// located problems, one string each.
func decode(t *testing.T, doc string, unknown UnknownFunc) (schema, []string) {
	t.Helper()
	d, err := Read("f.toml", []byte(doc))
	if err != nil {
		return schema{}, []string{err.Error()}
	}
	v := defaults()
	errs := d.Decode(&v, unknown)
	if err := d.CheckVersion(1); err != nil {
		errs = append(errs, err)
	}
	err = d.Locate(errs)
	if err == nil {
		return v, nil
	}
	return v, strings.Split(err.Error(), "\n")
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"a valid document", "config_version = 1\nname = \"x\"\n[search]\nmax_results = 3\n", nil},
		{"config_version missing", "name = \"x\"", []string{"f.toml: config_version: missing: the file must start with config_version = 1"}},
		{"config_version of another value", "config_version = 2", []string{"f.toml:1: config_version: must be 1, got 2"}},
		{"config_version of the wrong type, reported once", `config_version = "1"`, []string{"f.toml:1: config_version: want an integer, got a string"}},
		{"a typo of one letter", "config_version = 1\n[search]\nmax_result = 3", []string{"f.toml:3: search.max_result: unknown key (did you mean search.max_results?)"}},
		{"two letters swapped", "config_version = 1\n[serach]", []string{"f.toml:2: serach: unknown key (did you mean search?)"}},
		{"a typo in upper case", "config_version = 1\nNAME = \"x\"", []string{"f.toml:2: NAME: unknown key (did you mean name?)"}},
		{"a key in the wrong table", "config_version = 1\n[items.a]\ndeadline_ms = 3", []string{"f.toml:3: items.a.deadline_ms: unknown key (did you mean search.deadline_ms?)"}},
		{"a key of a map's values at the top", "config_version = 1\nweight = 3", []string{"f.toml:2: weight: unknown key (did you mean items.<name>.weight?)"}},
		{"a key far from every other", "config_version = 1\n[search]\nfrobnicate = 1", []string{"f.toml:3: search.frobnicate: unknown key"}},
		{"an unknown table is reported once", "config_version = 1\n[other]\na = 1\nb = 2", []string{"f.toml:2: other: unknown key"}},
		{"every value of the wrong type", "config_version = 1\nname = 3\n[search]\nmax_results = \"5\"\nstrict = \"yes\"\ndeadline_ms = 2.5\n", []string{
			"f.toml:2: name: want a string, got an integer",
			"f.toml:4: search.max_results: want an integer, got a string",
			"f.toml:5: search.strict: want true or false, got a string",
			"f.toml:6: search.deadline_ms: want an integer, got a float",
		}},
		{"each bad element of a list", "config_version = 1\n[search]\nlanguages = [\"en\", 1, true]", []string{
			"f.toml:3: search.languages[1]: want a string, got an integer",
			"f.toml:3: search.languages[2]: want a string, got a boolean",
		}},
		{"a list where a string belongs", "config_version = 1\nname = [\"x\"]", []string{"f.toml:2: name: want a string, got an array"}},
		{"a string where a list belongs", "config_version = 1\n[search]\nlanguages = \"en\"", []string{"f.toml:3: search.languages: want an array of strings, got a string"}},
		{"a value where a table belongs", "config_version = 1\nsearch = 1", []string{"f.toml:2: search: want a table, got an integer"}},
		{"a value where a table of tables belongs", "config_version = 1\nitems = 1", []string{"f.toml:2: items: want a table of tables, got an integer"}},
		{"a value where a map's table belongs", "config_version = 1\nitems.a = 1", []string{"f.toml:2: items.a: want a table, got an integer"}},
		{"a date where a number belongs", "config_version = 1\n[items.a]\nweight = 2026-12-03", []string{"f.toml:3: items.a.weight: want a number, got a date"}},
		{"an unknown key in an inline table", "config_version = 1\nitems = { a = { tpye = \"x\" } }", []string{"f.toml:2: items.a.tpye: unknown key (did you mean items.a.type?)"}},
		{"a syntax error alone", "config_version = 1\nname = \"x\"\nname = 3\nsearch = = 1", []string{"f.toml:3: not valid TOML at column 1: key name is already defined"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := decode(t, tc.doc, nil)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestDecodeKeepsWhatFits: the keys of the right type are decoded over
// the defaults; a key of the wrong type, and a list with a bad element,
// keep their defaults.
func TestDecodeKeepsWhatFits(t *testing.T) {
	doc := `config_version = 1
name = 3
[search]
max_results = 7
languages = ["fr", 2]
strict = true
[items.a]
weight = 2
[items.b]
weight = "heavy"
type = "t"
[labels]
x = "y"
`
	got, problems := decode(t, doc, nil)
	if len(problems) != 3 {
		t.Errorf("problems: %q, want 3", problems)
	}
	two := 2.0
	want := schema{
		Version: 1,
		Name:    "default",
		Search:  searchTable{MaxResults: 7, Languages: []string{"en"}, Strict: true},
		Items:   map[string]item{"a": {Weight: &two}, "b": {Type: "t"}},
		Labels:  map[string]string{"x": "y"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestDecodeAsksUnknown: an UnknownFunc words the problems it knows; the
// others stay "unknown key".
func TestDecodeAsksUnknown(t *testing.T) {
	unknown := func(key []string) *FieldError {
		if key[len(key)-1] == "api_key" {
			return &FieldError{Field: strings.Join(key, "."), Problem: "inline secret"}
		}
		return nil
	}
	_, got := decode(t, "config_version = 1\napi_key = \"k\"\nnaem = \"x\"", unknown)
	want := []string{"f.toml:2: api_key: inline secret", "f.toml:3: naem: unknown key (did you mean name?)"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFieldErrorFormats(t *testing.T) {
	for _, tc := range []struct {
		e    FieldError
		want string
	}{
		{FieldError{File: "a.toml", Line: 3, Field: "x.y", Problem: "bad", Suggestion: "x.z"}, "a.toml:3: x.y: bad (did you mean x.z?)"},
		{FieldError{File: "a.toml", Field: "x", Problem: "missing"}, "a.toml: x: missing"},
		{FieldError{Line: 2, Problem: "not valid TOML"}, "config:2: not valid TOML"},
		{FieldError{Problem: "bad"}, "config: bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestLocate: problems get the line of their key, or of the nearest
// table the document writes, list indexes aside; they are sorted by line,
// those of no line first; other errors pass unchanged.
func TestLocate(t *testing.T) {
	d, err := Read("f.toml", []byte("config_version = 1\n[search]\nlanguages = [\"en\"]\n\n[items.a]\ntype = \"x\"\n[labels]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		line  int
	}{
		{"config_version", 1},
		{"search", 2},
		{"search.languages", 3},
		{"search.languages[0]", 3},
		{"search.max_results", 2},
		{"items.a", 5},
		{"items.a.type", 6},
		{"items.a.weight", 5},
		{"items.b", 0},
		{"labels", 7},
		{"name", 0},
		{"", 0},
	} {
		if got := d.Line(tc.field); got != tc.line {
			t.Errorf("Line(%q) = %d, want %d", tc.field, got, tc.line)
		}
	}
	other := errors.New("other")
	joined := d.Locate([]error{
		&FieldError{Field: "items.a.type", Problem: "p"},
		nil,
		&FieldError{Field: "name", Problem: "p"},
		&FieldError{Field: "search.languages[0]", Problem: "p"},
		other,
	})
	want := "f.toml:6: items.a.type: p"
	got := strings.Split(joined.Error(), "\n")
	if want := []string{"f.toml: name: p", "other", "f.toml:3: search.languages[0]: p", want}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(joined, other) {
		t.Error("the other error is lost")
	}
	if d.Locate(nil) != nil || d.Locate([]error{nil}) != nil {
		t.Error("Locate of no problem is not nil")
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"", "abc", 3},
		{"robot_txt", "robots_txt", 1},
		{"serach", "search", 1},
		{"level", "lvel", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := distance(tc.b, tc.a); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

// TestDecodeOfAValidDocumentIsGoTOMLs: a document that fits the schema
// decodes as go-toml's strict decoder decodes it.
func TestDecodeOfAValidDocumentIsGoTOMLs(t *testing.T) {
	for _, doc := range []string{
		"",
		"config_version = 1\nname = \"x\\ty\"\n[search]\nlanguages = []\nmax_results = -3\n",
		"search.languages = ['a', \"b\"]\nsearch.strict = true\nitems.a.weight = nan\n",
		"items = { a = { weight = 1e300, type = \"t\" }, 'b.c' = {} }\nlabels = { \"k k\" = \"v\" }\n",
		"[items.\"x y\"]\nweight = 7\n[search]\ndeadline_ms = 9223372036854775807\n",
	} {
		d, err := Read("", []byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		got := defaults()
		if errs := d.Decode(&got, nil); len(errs) > 0 {
			t.Fatalf("%q: %v", doc, errs)
		}
		want := defaults()
		if err := toml.NewDecoder(strings.NewReader(doc)).DisallowUnknownFields().Decode(&want); err != nil {
			t.Fatalf("%q: go-toml: %v", doc, err)
		}
		if g, w := fmt.Sprintf("%+v", deref(got)), fmt.Sprintf("%+v", deref(want)); g != w {
			t.Errorf("%q:\n got %s\nwant %s", doc, g, w)
		}
	}
}

// deref prints the weights of s's items as values, so that two decodes
// compare (NaN included).
func deref(s schema) map[string]any {
	items := map[string]string{}
	for k, it := range s.Items {
		w := "nil"
		if it.Weight != nil {
			w = fmt.Sprint(*it.Weight)
		}
		items[k] = w + "/" + it.Type
	}
	return map[string]any{"version": s.Version, "name": s.Name, "search": s.Search, "items": items, "labels": s.Labels}
}
