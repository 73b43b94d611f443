package pdf

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/pdf/internal/lpdf"
)

// maxPageGlyphs bounds the glyphs kept of one page (about 56 bytes each):
// a dense page of text measured under 8,000; the rest of a page over it is
// dropped (Result.Partial).
const maxPageGlyphs = 20000

// glyph is one character shown on a page, in text space turned to page
// space: its baseline's start, its advance and its font size.
type glyph struct {
	x, y, w, size float64
	r             rune
	bold          bool
	run           int // the text-showing operation it came from
}

// matrix is a PDF transformation matrix [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m×n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// font is a page's font as the text needs it: its encoding, and its
// glyphs' widths (thousandths of an em) read once, as the reader would
// read them again for every glyph.
type font struct {
	enc    lpdf.TextEncoding
	cid    bool // two-byte codes (Type0)
	bold   bool
	first  int             // a simple font's first code
	widths []float64       // a simple font's widths from first
	cidW   map[int]float64 // a Type0 font's widths by CID (its /W)
	dw     float64         // a Type0 font's default width (its /DW)
}

// maxFontWidths bounds the widths read of one font: 256 codes of a
// simple font, a CJK font's 65,536 CIDs.
const maxFontWidths = 1 << 16

// width is code's width, 0 when the font does not say.
func (f *font) width(code int) float64 {
	if f.cid {
		if w, ok := f.cidW[code]; ok {
			return w
		}
		return f.dw
	}
	if i := code - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i]
	}
	return 0
}

// textState is the graphics and text state the glyphs' places depend on.
type textState struct {
	ctm, tm, tlm           matrix
	tc, tw, th, tl, fs, ts float64
	font                   *font
}

// errPageFull ends a page's interpretation at maxPageGlyphs.
type errPageFull struct{}

// pageGlyphs interprets the page's content streams and returns its glyphs
// in the order they are shown; cut reports that the page was not read to
// its end: maxPageGlyphs, a bound of guard's, or a panic of the reader on
// damaged content (the glyphs before it are kept).
func pageGlyphs(p lpdf.Page, b *budget) (gs []glyph, cut bool) {
	contents := p.V.Key("Contents")
	if contents.IsNull() {
		return nil, false
	}
	fonts := map[string]*font{}
	st := textState{ctm: identity, tm: identity, tlm: identity, th: 1}
	var stack []textState
	run := 0
	show := func(raw string) {
		f := st.font
		if f == nil {
			f = &font{}
		}
		var decoded string
		if f.enc != nil {
			decoded = f.enc.Decode(raw)
		} else {
			decoded = raw
		}
		n := utf8.RuneCountInString(decoded)
		if n == 0 {
			return
		}
		run++
		codes, size := len(raw), 1
		if f.cid {
			codes, size = len(raw)/2, 2
		}
		i := 0
		for _, r := range decoded {
			w := 0.0
			if codes == n && len(raw)%size == 0 {
				code := int(raw[i*size])
				if size == 2 {
					code = code<<8 | int(raw[i*size+1])
				}
				w = f.width(code)
			}
			if w <= 0 {
				w = 500 // half an em, where the font gives no width
			}
			i++
			trm := matrix{st.fs * st.th, 0, 0, st.fs, 0, st.ts}.mul(st.tm).mul(st.ctm)
			size := math.Hypot(trm[2], trm[3])
			adv := (w/1000*st.fs + st.tc) * st.th
			if r == ' ' {
				adv += st.tw * st.th
			}
			if len(gs) >= maxPageGlyphs {
				panic(errPageFull{})
			}
			// The glyph's width is its font's: spacing (Tc, Tw) is the gap
			// after it, where a word space often is. A space whose advance
			// spacing cancels (ghostscript's justified lines) is none.
			scale := math.Hypot(st.tm[0], st.tm[1]) * math.Hypot(st.ctm[0], st.ctm[1])
			if r != ' ' || adv*scale > 0.1*size {
				gs = append(gs, glyph{x: trm[4], y: trm[5], w: w / 1000 * st.fs * st.th * scale, size: size, r: r, bold: f.bold, run: run})
			}
			st.tm = matrix{1, 0, 0, 1, adv, 0}.mul(st.tm)
		}
	}
	defer func() {
		if recover() != nil {
			cut = true
		}
	}()
	lpdf.Interpret(contents, func(stk *lpdf.Stack, op string) {
		if b.check() != nil {
			panic(b.err)
		}
		args := make([]lpdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		num := func(i int) float64 {
			if i < len(args) {
				return args[i].Float64()
			}
			return 0
		}
		mat := func() (matrix, bool) {
			if len(args) != 6 {
				return matrix{}, false
			}
			var m matrix
			for i := range m {
				m[i] = num(i)
			}
			return m, true
		}
		newline := func() {
			st.tlm = matrix{1, 0, 0, 1, 0, -st.tl}.mul(st.tlm)
			st.tm = st.tlm
		}
		switch op {
		case "cm":
			if m, ok := mat(); ok {
				st.ctm = m.mul(st.ctm)
			}
		case "q":
			if len(stack) < 64 {
				stack = append(stack, st)
			}
		case "Q":
			if n := len(stack); n > 0 {
				st, stack = stack[n-1], stack[:n-1]
			}
		case "BT":
			st.tm, st.tlm = identity, identity
		case "T*":
			newline()
		case "Tc":
			st.tc = num(0)
		case "Tw":
			st.tw = num(0)
		case "Tz":
			st.th = num(0) / 100
		case "TL":
			st.tl = num(0)
		case "Ts":
			st.ts = num(0)
		case "TD", "Td":
			if op == "TD" {
				st.tl = -num(1)
			}
			st.tlm = matrix{1, 0, 0, 1, num(0), num(1)}.mul(st.tlm)
			st.tm = st.tlm
		case "Tm":
			if m, ok := mat(); ok {
				st.tm, st.tlm = m, m
			}
		case "Tf":
			if len(args) == 2 {
				st.font = pageFont(p, fonts, args[0].Name())
				st.fs = num(1)
			}
		case "\"":
			if len(args) == 3 {
				st.tw, st.tc = num(0), num(1)
				newline()
				show(args[2].RawString())
			}
		case "'":
			if len(args) == 1 {
				newline()
				show(args[0].RawString())
			}
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			a := args[0]
			for i := 0; i < a.Len(); i++ {
				x := a.Index(i)
				if x.Kind() == lpdf.String {
					show(x.RawString())
					continue
				}
				tx := -x.Float64() / 1000 * st.fs * st.th
				st.tm = matrix{1, 0, 0, 1, tx, 0}.mul(st.tm)
			}
		}
	})
	return gs, false
}

// pageFont returns the page's font name, reading its encoding once.
func pageFont(p lpdf.Page, fonts map[string]*font, name string) *font {
	if f, ok := fonts[name]; ok {
		return f
	}
	f := &font{}
	fonts[name] = f
	pf := p.Font(name)
	if pf.V.IsNull() {
		return f
	}
	f.enc = pf.Encoder()
	f.cid = pf.V.Key("Subtype").Name() == "Type0"
	base := strings.ToLower(pf.BaseFont())
	f.bold = strings.Contains(base, "bold") || strings.Contains(base, "black") || strings.Contains(base, "heavy")
	if !f.cid {
		f.first = pf.FirstChar()
		ws := pf.V.Key("Widths")
		for i := 0; i < min(ws.Len(), maxFontWidths); i++ {
			f.widths = append(f.widths, ws.Index(i).Float64())
		}
		return f
	}
	desc := pf.V.Key("DescendantFonts").Index(0)
	f.dw = 1000
	if dw := desc.Key("DW"); dw.Kind() == lpdf.Integer || dw.Kind() == lpdf.Real {
		f.dw = dw.Float64()
	}
	f.cidW = cidWidths(desc.Key("W"))
	return f
}

// cidWidths reads a CID font's /W array, "c [w1 w2 …]" and "c1 c2 w"
// entries, at most maxFontWidths widths.
func cidWidths(w lpdf.Value) map[int]float64 {
	out := map[int]float64{}
	for i := 0; i+1 < w.Len() && len(out) < maxFontWidths; {
		c := int(w.Index(i).Int64())
		if next := w.Index(i + 1); next.Kind() == lpdf.Array {
			for j := 0; j < next.Len() && len(out) < maxFontWidths; j++ {
				out[c+j] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		if i+2 >= w.Len() {
			break
		}
		last, width := int(w.Index(i+1).Int64()), w.Index(i+2).Float64()
		for code := c; code <= last && len(out) < maxFontWidths; code++ {
			out[code] = width
		}
		i += 3
	}
	return out
}

// line is one line of a page: its text, where it starts, and its size.
type line struct {
	text      string
	x0, x1, y float64
	size      float64
	bold      bool
}

// lines groups a page's glyphs into lines: glyphs on one baseline, in the
// order shown, with a space where the gap between two is a word space.
func lines(gs []glyph) []line {
	var out []line
	var sb strings.Builder
	var cur line
	var prev glyph
	var bold, chars int
	flush := func() {
		t := strings.TrimSpace(sb.String())
		if t != "" {
			cur.text = t
			cur.bold = bold*2 > chars
			out = append(out, cur)
		}
		sb.Reset()
		bold, chars = 0, 0
	}
	for i, g := range gs {
		if g.size <= 0 {
			g.size = 1
		}
		if i > 0 {
			sameLine := math.Abs(g.y-prev.y) < 0.5*max(g.size, prev.size) && g.x > prev.x-2*g.size
			if !sameLine {
				flush()
			} else if gap := g.x - (prev.x + prev.w); gap > 0.15*g.size {
				if !strings.HasSuffix(sb.String(), " ") && g.r != ' ' {
					sb.WriteByte(' ')
				}
			}
		}
		if sb.Len() == 0 {
			cur = line{x0: g.x, y: g.y, size: g.size}
		}
		if unicodeSpace(g.r) {
			if !strings.HasSuffix(sb.String(), " ") {
				sb.WriteByte(' ')
			}
		} else {
			if lig, ok := ligatures[g.r]; ok {
				sb.WriteString(lig)
			} else {
				sb.WriteRune(g.r)
			}
			chars++
			if g.bold {
				bold++
			}
			cur.size = max(cur.size, g.size)
		}
		cur.x1 = g.x + g.w
		prev = g
	}
	flush()
	return out
}

// ligatures spells out the Latin ligatures fonts show as one glyph, as
// the text says them (and as pdftotext writes them).
var ligatures = map[rune]string{
	'\ufb00': "ff", '\ufb01': "fi", '\ufb02': "fl", '\ufb03': "ffi",
	'\ufb04': "ffl", '\ufb05': "st", '\ufb06': "st",
}

func unicodeSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\u00a0':
		return true
	}
	return false
}
