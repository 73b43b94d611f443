package htmlparse

import (
	"context"
	"io"
	"unsafe"

	"golang.org/x/net/html"
)

// The tree is x/net/html's: its types, under the names the copied parser
// uses.
type (
	Node      = html.Node
	NodeType  = html.NodeType
	Attribute = html.Attribute
	Token     = html.Token
	TokenType = html.TokenType
	Tokenizer = html.Tokenizer
)

const (
	ErrorNode    = html.ErrorNode
	TextNode     = html.TextNode
	DocumentNode = html.DocumentNode
	ElementNode  = html.ElementNode
	CommentNode  = html.CommentNode
	DoctypeNode  = html.DoctypeNode

	ErrorToken          = html.ErrorToken
	TextToken           = html.TextToken
	StartTagToken       = html.StartTagToken
	EndTagToken         = html.EndTagToken
	SelfClosingTagToken = html.SelfClosingTagToken
	CommentToken        = html.CommentToken
	DoctypeToken        = html.DoctypeToken
)

// Cost of the tree, in bytes: what one node and one attribute take beside
// the strings they hold (an html.Node is 104 bytes, allocated as 112; an
// Attribute is three strings).
const (
	NodeBytes = int(unsafe.Sizeof(Node{})+7) &^ 15
	AttrBytes = int(unsafe.Sizeof(Attribute{}))
)

// Parse returns the tree of the HTML document read from r, as
// html.Parse builds it, and stops reading when the tree has cost budget
// bytes (every node at NodeBytes, every attribute at AttrBytes, plus the
// bytes of their text, comments, tag names, keys and values): the tree is
// then what was built from the input read so far, and cut is true. A
// budget of zero or less means no bound. As html.Parse, it refuses
// documents nested deeper than 512 elements. It returns ctx's error when
// ctx ends first, so that a parse whose caller has gone stops.
func Parse(ctx context.Context, r io.Reader, budget int) (doc *Node, cut bool, err error) {
	p := &parser{
		ctx:        ctx,
		tokenizer:  html.NewTokenizer(r),
		doc:        &Node{Type: DocumentNode},
		scripting:  true,
		framesetOK: true,
		im:         initialIM,
		budget:     budget,
	}
	if err := p.parse(); err != nil {
		return nil, false, err
	}
	return p.doc, p.cut, nil
}

// spend counts node n (and its attributes) against the budget.
func (p *parser) spend(n *Node) {
	p.cost += NodeBytes + len(n.Data)
	for _, a := range n.Attr {
		p.cost += AttrBytes + len(a.Key) + len(a.Val)
	}
}

// spendAttr counts an attribute copyAttributes added to the html or body
// element, with its entry in attrKeys's map.
func (p *parser) spendAttr(a Attribute) {
	p.cost += AttrBytes + keyEntryBytes + len(a.Key) + len(a.Val)
}

// keyEntryBytes is what one entry of attrKeys's map takes: a key and a
// value string, a byte of metadata, at the map's load factor.
const keyEntryBytes = 48

// over reports whether the budget is spent.
func (p *parser) over() bool {
	return p.budget > 0 && p.cost > p.budget
}

// appendTo adds n as the last child of parent, counted.
func (p *parser) appendTo(parent, n *Node) {
	p.spend(n)
	parent.AppendChild(n)
}

// appendText appends s to text node n. Upstream writes n.Data += s, which
// copies the whole text each time: a document of many text runs that all
// join one node (text between ignored tags, "a</x>a</x>...") then costs
// time quadratic in its length. The runs are kept in one growing buffer
// instead, and n.Data views it: append never writes over bytes a string
// already made from it holds.
func (p *parser) appendText(n *Node, s string) {
	p.cost += len(s)
	if p.textNode != n || len(n.Data) != len(p.textBuf) || unsafe.StringData(n.Data) != unsafe.SliceData(p.textBuf) {
		p.textNode = n
		p.textBuf = append(make([]byte, 0, 2*(len(n.Data)+len(s))), n.Data...)
	}
	p.textBuf = append(p.textBuf, s...)
	n.Data = unsafe.String(unsafe.SliceData(p.textBuf), len(p.textBuf))
}

// attrKeys returns the attributes of dst (the html or body element) that
// copyAttributes keeps up to date. Upstream builds this map from dst.Attr
// on every call: many <html a1><html a2>... tags then cost time quadratic
// in their number.
func (p *parser) attrKeys(dst *Node) map[string]string {
	if m, ok := p.keys[dst]; ok {
		return m
	}
	if p.keys == nil {
		p.keys = make(map[*Node]map[string]string, 2)
	}
	m := make(map[string]string, len(dst.Attr))
	for _, t := range dst.Attr {
		m[t.Key] = t.Val
	}
	p.keys[dst] = m
	return m
}
