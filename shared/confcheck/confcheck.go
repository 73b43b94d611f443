// Package confcheck reads a TOML configuration file against its schema
// and reports every problem at once, each with its line, in the one
// format both rypsok and rypsok-egress print:
//
//	FILE:LINE: KEY: PROBLEM (did you mean X?)
//
// A schema is a Go struct whose fields carry toml tags (front/config's
// private file type, shared/egressfile's File). Reading takes three
// steps: Read parses the document (a syntax error is the one problem
// reported alone, since nothing after it can be read); Doc.Decode checks
// every key against the schema (an unknown key, with the schema key
// nearest to it; a value of the wrong type) and decodes every other key;
// the caller then judges the values, and Doc.Locate gives each problem
// its file and line and joins them in document order. It opens no file
// and judges no value.
package confcheck

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// FieldError is one problem of a configuration file.
type FieldError struct {
	// File is the file's path, "" when the text came from elsewhere.
	File string
	// Line is the 1-based line of the key, or of the nearest table
	// holding it; 0 when the file does not write it (a missing key).
	Line int
	// Field is the dotted key ("search.deadline_ms",
	// "search.languages[1]"); "" for a problem of the whole file.
	Field string
	// Problem says what is wrong; it never quotes a credential.
	Problem string
	// Suggestion is the schema key an unknown key was probably meant to
	// be, "" for none.
	Suggestion string
}

// Error formats e as FILE:LINE: KEY: PROBLEM (did you mean X?), leaving
// out what is unknown; a text not read from a file is named "config".
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(cmp.Or(e.File, "config"))
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Problem)
	if e.Suggestion != "" {
		b.WriteString(" (did you mean " + e.Suggestion + "?)")
	}
	return b.String()
}

// Doc is a parsed configuration document: its values, and the line of
// each of its keys.
type Doc struct {
	file  string
	tree  map[string]any
	lines map[string]int // dotted key path: the line it first appears on
	paths [][]string     // every table header and key, in document order
}

// Read parses data, the content of file ("" when it came from elsewhere).
// Its error is a *FieldError with the line of a syntax error.
func Read(file string, data []byte) (*Doc, error) {
	var tree map[string]any
	if err := toml.Unmarshal(data, &tree); err != nil {
		return nil, syntaxError(file, err)
	}
	if tree == nil {
		tree = map[string]any{}
	}
	d := &Doc{file: file, tree: tree, lines: map[string]int{}}
	d.index(data)
	return d, nil
}

// syntaxError words a go-toml parse error. go-toml's messages never
// quote the value.
func syntaxError(file string, err error) error {
	fe := &FieldError{File: file, Problem: "not valid TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		fe.Line = row
		fe.Problem = fmt.Sprintf("not valid TOML at column %d: %s", col, strings.TrimPrefix(de.Error(), "toml: "))
	}
	return fe
}

// index records the path and line of every table header and key of the
// document, inline tables included: `[a.b]` then `c.d = 1` give a.b and
// a.b.c.d. It reads what decoding into a map loses: order and lines.
func (d *Doc) index(data []byte) {
	starts := []int{0} // offset of each line's first byte
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyOf(n)
			d.add(table, lineOf(n, starts))
		case unstable.KeyValue:
			d.addKeyValue(table, n, starts)
		}
	}
}

// addKeyValue records the key-value n under table, then an inline
// table's keys.
func (d *Doc) addKeyValue(table []string, n *unstable.Node, starts []int) {
	path := slices.Concat(table, keyOf(n))
	d.add(path, lineOf(n, starts))
	if v := n.Value(); v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				d.addKeyValue(path, kv, starts)
			}
		}
	}
}

func (d *Doc) add(path []string, line int) {
	d.paths = append(d.paths, path)
	key := strings.Join(path, ".")
	if _, seen := d.lines[key]; !seen {
		d.lines[key] = line
	}
}

// keyOf returns the parts of the key of a Table, ArrayTable or KeyValue
// node, unquoted.
func keyOf(n *unstable.Node) []string {
	var parts []string
	it := n.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// lineOf returns the line of n's key, starts being the offsets of the
// document's lines.
func lineOf(n *unstable.Node, starts []int) int {
	it := n.Key()
	if !it.Next() {
		return 0
	}
	off := int(it.Node().Raw.Offset)
	return sort.SearchInts(starts, off+1) // the count of lines starting at or before off
}

// Paths returns the path of every table header and key of the document,
// in document order.
func (d *Doc) Paths() [][]string { return d.paths }

// Line returns the line of field (a dotted key, list indexes allowed:
// "search.languages[1]"), or of the nearest table holding it that the
// document writes; 0 when it writes none of them.
func (d *Doc) Line(field string) int {
	parts := strings.Split(field, ".")
	for i, p := range parts {
		if j := strings.IndexByte(p, '['); j > 0 && strings.HasSuffix(p, "]") {
			parts[i] = p[:j]
		}
	}
	for n := len(parts); n > 0; n-- {
		if line, ok := d.lines[strings.Join(parts[:n], ".")]; ok {
			return line
		}
	}
	return 0
}

// VersionKey is the key every configuration file starts with.
const VersionKey = "config_version"

// CheckVersion reports a problem when the document does not write
// config_version = want: "missing" when it writes no config_version. A
// config_version of the wrong type is Decode's problem, not reported
// again.
func (d *Doc) CheckVersion(want int64) error {
	raw, ok := d.tree[VersionKey]
	if !ok {
		return &FieldError{Field: VersionKey, Problem: fmt.Sprintf("missing: the file must start with %s = %d", VersionKey, want)}
	}
	if n, isInt := raw.(int64); isInt && n != want {
		return &FieldError{Field: VersionKey, Problem: fmt.Sprintf("must be %d, got %d", want, n)}
	}
	return nil
}

// Locate gives every *FieldError of errs the document's file and the line
// of its key (a FieldError that has a line keeps it), and joins errs in
// document order, the problems of no line first; nil when errs holds
// none.
func (d *Doc) Locate(errs []error) error {
	type located struct {
		line int
		err  error
	}
	var out []located
	for _, err := range errs {
		if err == nil {
			continue
		}
		line := 0
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.File = d.file
			if fe.Line == 0 {
				fe.Line = d.Line(fe.Field)
			}
			line = fe.Line
		}
		out = append(out, located{line, err})
	}
	slices.SortStableFunc(out, func(a, b located) int { return cmp.Compare(a.line, b.line) })
	joined := make([]error, len(out))
	for i, l := range out {
		joined[i] = l.err
	}
	return errors.Join(joined...)
}
