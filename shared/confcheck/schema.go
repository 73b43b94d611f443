package confcheck

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// UnknownFunc words the problem of an unknown key (its path): a
// *FieldError to report instead of "unknown key", or nil for that.
type UnknownFunc func(key []string) *FieldError

// Decode checks the document's keys against the schema v points to (a
// struct whose fields carry toml tags, filled with its defaults) and
// decodes every key that fits over it. It returns a *FieldError for each
// unknown key (worded by unknown when that is non-nil and returns
// non-nil; else "unknown key", with the nearest key of the schema as
// Suggestion) and for each value of the wrong type; such keys keep v's
// defaults, and a list with one wrong element is left out whole. The
// problems have no line yet: Locate gives it.
func (d *Doc) Decode(v any, unknown UnknownFunc) []error {
	rt := reflect.TypeOf(v).Elem()
	c := checker{unknown: unknown, leaves: leafPaths(rt, nil)}
	clean := c.table(nil, rt, d.tree)
	// What is left fits the schema, so a strict decode of it cannot fail;
	// go-toml then does the conversions, exactly as for a valid file.
	data, err := toml.Marshal(clean)
	if err == nil {
		err = toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(v)
	}
	if err != nil {
		c.problems = append(c.problems, &FieldError{Problem: "cannot be decoded: " + strings.TrimPrefix(err.Error(), "toml: ")})
	}
	return c.problems
}

// checker walks a document's tree along the schema's types.
type checker struct {
	unknown  UnknownFunc
	leaves   [][]string // every key of the schema, a map's key written "*"
	problems []error
}

// table checks the table m against the struct type t, at path, and
// returns the keys that fit.
func (c *checker) table(path []string, t reflect.Type, m map[string]any) map[string]any {
	fields := fieldsOf(t)
	out := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		key := slices.Concat(path, []string{k})
		ft, known := fields[k]
		if !known {
			c.unknownKey(key, slices.Sorted(maps.Keys(fields)))
			continue
		}
		if v, ok := c.value(key, ft, m[k]); ok {
			out[k] = v
		}
	}
	return out
}

// value checks v against the type t, at path, and returns what fits and
// whether v does.
func (c *checker) value(path []string, t reflect.Type, v any) (any, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var fits bool
	switch t.Kind() {
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			return c.table(path, t, m), true
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			out := map[string]any{}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if e, ok := c.value(slices.Concat(path, []string{k}), t.Elem(), m[k]); ok {
					out[k] = e
				}
			}
			return out, true
		}
	case reflect.Slice:
		if arr, ok := v.([]any); ok {
			return arr, c.elements(path, t.Elem(), arr)
		}
	case reflect.String:
		_, fits = v.(string)
	case reflect.Bool:
		_, fits = v.(bool)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, fits = v.(int64)
	case reflect.Float32, reflect.Float64:
		switch v.(type) {
		case float64, int64:
			fits = true
		}
	default:
		fits = true
	}
	if !fits {
		c.problems = append(c.problems, &FieldError{Field: strings.Join(path, "."), Problem: fmt.Sprintf("want %s, got %s", wantName(t), gotName(v))})
	}
	return v, fits
}

// elements checks every element of a list, reporting each one that does
// not fit, and reports whether all do.
func (c *checker) elements(path []string, t reflect.Type, arr []any) bool {
	all := true
	for i, e := range arr {
		at := slices.Clone(path)
		at[len(at)-1] += fmt.Sprintf("[%d]", i)
		if _, ok := c.value(at, t, e); !ok {
			all = false
		}
	}
	return all
}

// unknownKey reports the unknown key, siblings being the keys its table
// has.
func (c *checker) unknownKey(key []string, siblings []string) {
	if c.unknown != nil {
		if fe := c.unknown(key); fe != nil {
			c.problems = append(c.problems, fe)
			return
		}
	}
	c.problems = append(c.problems, &FieldError{
		Field:      strings.Join(key, "."),
		Problem:    "unknown key",
		Suggestion: c.suggest(key, siblings),
	})
}

// suggest returns the key an unknown key was probably meant to be: the
// key of its own table nearest to it in edit distance (a typo: a letter
// missing, extra, changed, or two swapped), else the one key of the
// schema elsewhere with the same name (a key in the wrong table); "" when
// there is none.
func (c *checker) suggest(key []string, siblings []string) string {
	name := key[len(key)-1]
	best, bestDist := "", max(1, len(name)/4)+1
	for _, s := range siblings {
		if d := distance(strings.ToLower(name), s); d < bestDist {
			best, bestDist = s, d
		}
	}
	if best != "" {
		return strings.Join(slices.Concat(key[:len(key)-1], []string{best}), ".")
	}
	var found []string
	for _, l := range c.leaves {
		if l[len(l)-1] == name {
			found = append(found, strings.ReplaceAll(strings.Join(l, "."), "*", "<name>"))
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

// distance is the optimal string alignment distance of a and b: the
// fewest insertions, deletions, substitutions and swaps of two adjacent
// bytes that turn one into the other.
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// fieldsOf returns the toml keys of the struct type t and their types.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		out[name] = f.Type
	}
	return out
}

// leafPaths returns the keys of the schema t under prefix that hold a
// value, a map's key written "*".
func leafPaths(t reflect.Type, prefix []string) [][]string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		var out [][]string
		fields := fieldsOf(t)
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			out = append(out, leafPaths(fields[name], slices.Concat(prefix, []string{name}))...)
		}
		return out
	case reflect.Map:
		return leafPaths(t.Elem(), slices.Concat(prefix, []string{"*"}))
	}
	return [][]string{prefix}
}

// wantName names the type t as an operator reads it.
func wantName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array"
	case reflect.Map:
		return "a table of tables"
	}
	return "a table"
}

// gotName names the TOML type of a decoded value.
func gotName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time, toml.LocalDateTime:
		return "a date-time"
	case toml.LocalDate:
		return "a date"
	case toml.LocalTime:
		return "a time"
	}
	return "a value"
}
