package config

import (
	"slices"

	"github.com/pelletier/go-toml/v2/unstable"
)

// keyPaths returns the full key path of every table header and key of
// the document, in document order, inline tables included: `[a.b]` then
// `c.d = 1` give ["a" "b"] and ["a" "b" "c" "d"]. It reads what go-toml's
// map decoding loses: the order of the keys. A document that does not
// parse gives the paths before the error.
func keyPaths(data []byte) [][]string {
	var p unstable.Parser
	p.Reset(data)
	var table []string
	var paths [][]string
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyOf(n)
			paths = append(paths, table)
		case unstable.KeyValue:
			paths = appendKeyValue(paths, table, n)
		}
	}
	return paths
}

// appendKeyValue appends the path of the key-value n under table, then
// those of an inline table's keys.
func appendKeyValue(paths [][]string, table []string, n *unstable.Node) [][]string {
	path := append(slices.Clone(table), keyOf(n)...)
	paths = append(paths, path)
	if v := n.Value(); v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				paths = appendKeyValue(paths, path, kv)
			}
		}
	}
	return paths
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

// engineOrder returns the engine ids of the document in the order they
// first appear ([engines.z] before [engines.a] gives z, a), however they
// are written: tables, dotted keys or inline tables.
func engineOrder(data []byte) []string {
	var ids []string
	for _, p := range keyPaths(data) {
		if len(p) >= 2 && p[0] == "engines" && !slices.Contains(ids, p[1]) {
			ids = append(ids, p[1])
		}
	}
	return ids
}
