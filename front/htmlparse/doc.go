// Package htmlparse builds the HTML5 tree of a document, as
// golang.org/x/net/html's Parse does, within a budget of memory.
//
// A fetched page is hostile input, and what a tree costs is not what its
// bytes cost: 5 MiB of "<p>a</p>" is 1.3 million nodes of 112 bytes, and
// formatting elements left open ("<b id=1><b id=2>...") are reopened by
// the HTML standard before every later paragraph, so a few megabytes can
// ask for billions of nodes. Counting the input, or the nodes of the
// finished tree, comes after the damage. Parse counts what the tree
// builder allocates (nodes, attributes, the bytes of text, comments, names
// and values) as it goes and stops reading at the budget; the caller gets
// the tree built so far.
//
// The parser is x/net/html's own (parse.go, foreign.go, doctype.go,
// const.go and the stacks and clone of node.go, copied from the version
// named by upstream, BSD-licensed: LICENSE), with these changes, each
// marked "rypsok:" in the code:
//
//   - every node and attribute added to the tree is counted (addChild,
//     the foster-parented text of addText, the clones of the adoption
//     agency, comments and the doctype appended to the document,
//     copyAttributes), and the token loop, and the reconstruction of the
//     active formatting elements, stop once the budget is spent;
//   - text joined to the previous text node grows one buffer instead of
//     concatenating strings, which was quadratic in the number of runs;
//   - the token loop ends when the caller's context does;
//   - copyAttributes keeps the keys of the html and body elements in a
//     map instead of building one from their attributes for every
//     <html> or <body> tag, which was quadratic in their number;
//   - Parse is the one entry point; upstream's Parse, ParseFragment and
//     options are not copied, and the tree's types are x/net/html's.
//
// Nothing else differs: without a budget, the tree is html.Parse's,
// node for node (TestSameTreeAsUpstream, FuzzSameTreeAsUpstream). When
// go.mod moves golang.org/x/net, TestUpstreamVersion fails until the
// files are copied again from that version and the changes re-applied.
package htmlparse

// upstream is the golang.org/x/net version the parser was copied from.
const upstream = "v0.59.0"
