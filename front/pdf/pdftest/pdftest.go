// Package pdftest writes small PDF documents for tests: text documents
// whose text is known, and hostile ones (a Flate bomb, reference cycles,
// a lying cross-reference table, an encrypted document, image-only pages,
// operands piled up without an operator). Pure: no I/O.
package pdftest

import (
	"bytes"
	"cmp"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
)

// Line is one line of a page's text, set at Size points (12 when 0), in
// Helvetica-Bold when Bold or larger than 12 points.
type Line struct {
	Text string
	Size float64
	Bold bool
}

// Doc is a document to write.
type Doc struct {
	// Title goes into the document information dictionary when not "".
	Title string
	// Pages are the pages' lines, top to bottom.
	Pages [][]Line
	// Raw replaces a page's content stream when not nil (index by page).
	Raw map[int][]byte
	// Deflated replaces a page's content stream by these bytes as they
	// are, already compressed (index by page), read through Filter
	// ("/FlateDecode" when "").
	Deflated map[int][]byte
	Filter   string
	// Extra objects appended as they are (numbered after the others), and
	// extra trailer entries (written inside the trailer dictionary).
	Extra   []string
	Trailer string
	// Uncompressed writes the content streams without Flate.
	Uncompressed bool
	// FontF3, when not 0, is the object number the pages' resources name
	// F3 (a font among Extra).
	FontF3 int
}

// Bytes writes d: a catalog, a page tree, one Helvetica font
// (WinAnsiEncoding, widths omitted), one content stream a page, a
// classic cross-reference table and a trailer.
func (d Doc) Bytes() []byte {
	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	catalog := add("") // filled in below
	pages := add("")
	font := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	bold := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	var kids []string
	for i, p := range d.Pages {
		content, ok := d.Raw[i]
		if !ok {
			content = pageContent(p)
		}
		var strm string
		if z, ok := d.Deflated[i]; ok {
			filter := cmp.Or(d.Filter, "/FlateDecode")
			strm = fmt.Sprintf("<< /Length %d /Filter %s >>\nstream\n%s\nendstream", len(z), filter, z)
		} else if d.Uncompressed {
			strm = fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)
		} else {
			z := Deflate(content)
			strm = fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), z)
		}
		c := add(strm)
		f3 := ""
		if d.FontF3 != 0 {
			f3 = fmt.Sprintf(" /F3 %d 0 R", d.FontF3)
		}
		pg := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R /F2 %d 0 R%s >> >> /Contents %d 0 R >>", pages, font, bold, f3, c))
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages)
	objs[pages-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	info := 0
	if d.Title != "" {
		info = add(fmt.Sprintf("<< /Title (%s) /Producer (pdftest) >>", escape(d.Title)))
	}
	for _, e := range d.Extra {
		add(e)
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R", len(objs)+1, catalog)
	if info != 0 {
		fmt.Fprintf(&b, " /Info %d 0 R", info)
	}
	fmt.Fprintf(&b, "%s >>\nstartxref\n%d\n%%%%EOF\n", d.Trailer, xref)
	return b.Bytes()
}

// pageContent shows each line at the left margin, 1.4 sizes below the
// previous one; a line of Size over 12 in the bold font.
func pageContent(p []Line) []byte {
	var b bytes.Buffer
	y := 750.0
	for _, l := range p {
		size := l.Size
		if size == 0 {
			size = 12
		}
		y -= 1.4 * size
		f := "F1"
		if l.Bold || size > 12 {
			f = "F2"
		}
		fmt.Fprintf(&b, "BT /%s %g Tf 72 %g Td (%s) Tj ET\n", f, size, y, escape(l.Text))
	}
	return b.Bytes()
}

// escape writes s as the inside of a PDF literal string.
func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

// Deflate compresses b with zlib, as FlateDecode reads it.
func Deflate(b []byte) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

// Paragraphs returns pages of 12-point lines: each page's paragraphs
// (their lines separated by "\n"), a blank line of space between two.
func Paragraphs(pages ...[]string) [][]Line {
	var out [][]Line
	for _, paras := range pages {
		var ls []Line
		for i, p := range paras {
			if i > 0 {
				ls = append(ls, Line{Text: " "})
			}
			for _, l := range strings.Split(p, "\n") {
				ls = append(ls, Line{Text: l})
			}
		}
		out = append(out, ls)
	}
	return out
}

// Bomb is a document of pages whose content streams are each about a
// thousandth of n bytes of Flate that inflate to n bytes of spaces (n a
// multiple of bombChunk, at least two).
func Bomb(n, pages int) []byte {
	z := BombStream(n)
	d := Doc{Deflated: map[int][]byte{}}
	for i := 0; i < pages; i++ {
		d.Pages = append(d.Pages, nil)
		d.Deflated[i] = z
	}
	return d.Bytes()
}

// bombChunk is the run of spaces a bomb repeats.
const bombChunk = 1 << 20

// BombStream is a zlib stream that inflates to n spaces (n a multiple of
// bombChunk, at least two). Deflating a gigabyte takes a minute under the
// race detector, so the stream is built as deflate allows: the second
// chunk, flushed to a byte boundary, compresses to the same bytes as every
// chunk after it (its window holds spaces only), and is repeated; the
// Adler-32 of the whole is computed by arithmetic.
func BombStream(n int) []byte {
	var z bytes.Buffer
	z.Write([]byte{0x78, 0xda}) // zlib: deflate, 32 KiB window, best compression
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	chunk := bytes.Repeat([]byte(" "), bombChunk)
	w.Write(chunk)
	w.Flush()
	a := z.Len()
	w.Write(chunk)
	w.Flush()
	seg := bytes.Clone(z.Bytes()[a:])
	for i := 2; i < n/bombChunk; i++ {
		z.Write(seg)
	}
	w.Close()
	// Adler-32 of n bytes c: A = 1 + n·c, B = n + c·n(n+1)/2, modulo 65521.
	const mod, c = 65521, ' '
	m := uint64(n) % mod
	sum := uint64(n) * uint64(n+1) / 2 % mod
	adlerA := (1 + m*c) % mod
	adlerB := (m + c*sum) % mod
	return binary.BigEndian.AppendUint32(z.Bytes(), uint32(adlerB<<16|adlerA))
}

// Operands is a one-page document whose content stream pushes n operands
// and never an operator.
func Operands(n int) []byte {
	return Doc{Pages: [][]Line{{}}, Raw: map[int][]byte{0: bytes.Repeat([]byte("1 "), n)}}.Bytes()
}

// ImageOnly is a document of pages that show an image and no text: a
// scan without a text layer.
func ImageOnly(pages int) []byte {
	d := Doc{Raw: map[int][]byte{}}
	for i := 0; i < pages; i++ {
		d.Pages = append(d.Pages, nil)
		d.Raw[i] = []byte("q 612 0 0 792 0 0 cm /Im1 Do Q\n")
	}
	img := bytes.Repeat([]byte{0x80}, 64*64)
	d.Extra = []string{fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length %d >>\nstream\n%s\nendstream", len(img), img)}
	return d.Bytes()
}

// Encrypted is a text document with an /Encrypt dictionary (RC4, 40
// bits) in its trailer.
func Encrypted() []byte {
	d := Doc{Pages: Paragraphs([]string{"Secret text."})}
	n := len(d.Pages)*2 + 4 + 1
	d.Extra = []string{"<< /Filter /Standard /V 1 /R 2 /O (0123456789abcdef0123456789abcdef) /U (0123456789abcdef0123456789abcdef) /P -4 >>"}
	d.Trailer = fmt.Sprintf(" /Encrypt %d 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]", n)
	return d.Bytes()
}

// Cyclic is a document whose page tree is its own kid, whose page's
// contents refer to themselves, and whose object 9 refers to object 10
// which refers back to 9.
func Cyclic() []byte {
	return []byte("%PDF-1.4\n" +
		"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
		"2 0 obj\n<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>\nendobj\n" +
		"3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 3 0 R /Resources 9 0 R >>\nendobj\n" +
		"9 0 obj\n10 0 R\nendobj\n" +
		"10 0 obj\n9 0 R\nendobj\n" +
		"trailer\n<< /Root 1 0 R /Prev 9 >>\nstartxref\n9\n%%EOF\n")
}

// HugeXref is a text document whose cross-reference stream claims a
// thousand million objects.
func HugeXref() []byte {
	b := Doc{Pages: Paragraphs([]string{"Text under a lying table."})}.Bytes()
	i := bytes.LastIndex(b, []byte("xref\n"))
	tail := "99 0 obj\n<< /Type /XRef /Size 1000000000 /Index [999999000 1000] /W [1 4 2] /Root 1 0 R /Length 0 >>\nstream\n\nendstream\nendobj\n"
	out := append([]byte{}, b[:i]...)
	at := len(out)
	out = append(out, tail...)
	out = append(out, fmt.Sprintf("startxref\n%d\n%%%%EOF\n", at)...)
	return out
}

// Costly is a document of about size bytes of one costly shape, for the
// tests of the front's memory ceiling:
//
//   - "bomb": pages whose streams each inflate to a gigabyte;
//   - "text": pages of uncompressed streams just under LIM-F11's
//     per-stream share, each one line of text shown in one operation;
//   - "objects": as many small objects as fit, each its own number;
//   - "operands": pages of Flate streams of runs of operands just under
//     the reader's bound, each taken by one operator.
func Costly(shape string, size int) []byte {
	switch shape {
	case "bomb":
		return Bomb(1<<30, max(1, size/(1<<20)))
	case "text":
		line := bytes.Repeat([]byte("word "), (2<<20-64)/5)
		content := append(append([]byte("BT /F1 10 Tf 72 700 Td ("), line...), ") Tj ET"...)
		d := Doc{Uncompressed: true, Raw: map[int][]byte{}}
		for i := 0; i < max(1, size/len(content)); i++ {
			d.Pages = append(d.Pages, nil)
			d.Raw[i] = content
		}
		return d.Bytes()
	case "objects":
		d := Doc{Pages: Paragraphs([]string{"Many objects."})}
		for i := 0; len(d.Extra)*64 < size-4096; i++ { // about 50 bytes each, with its table row
			d.Extra = append(d.Extra, fmt.Sprintf("<< /N %d >>", i))
		}
		return d.Bytes()
	case "operands":
		run := append(bytes.Repeat([]byte("1 "), 19990), "re\n"...)
		z := Deflate(bytes.Repeat(run, (2<<20-1)/len(run)))
		d := Doc{Deflated: map[int][]byte{}}
		for i := 0; i < max(1, min(size/(len(z)+512), 500)); i++ {
			d.Pages = append(d.Pages, nil)
			d.Deflated[i] = z
		}
		return d.Bytes()
	}
	panic("pdftest.Costly: no shape " + shape)
}

// CID is a one-page document in a Type0 font (Identity-H, two-byte codes,
// a ToUnicode CMap, every glyph width wide in its /W): each run is shown
// by its own operation where the glyphs before it end, plus gap ems; a
// run's spaces are glyphs of their own.
func CID(width int, gap float64, runs ...string) []byte {
	var b bytes.Buffer
	x := 72.0
	for _, r := range runs {
		var hex strings.Builder
		for _, c := range []byte(r) {
			fmt.Fprintf(&hex, "%04X", c)
		}
		fmt.Fprintf(&b, "BT /F3 12 Tf %g 700 Td <%s> Tj ET\n", x, hex.String())
		x += float64(len(r)*width)/1000*12 + gap*12
	}
	cmap := "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n" +
		"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n1 beginbfrange\n<0020> <007E> <0020>\nendbfrange\n" +
		"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
	d := Doc{Pages: [][]Line{nil}, Raw: map[int][]byte{0: b.Bytes()}}
	d.Extra = []string{
		"<< /Type /Font /Subtype /Type0 /BaseFont /Test-CID /Encoding /Identity-H /DescendantFonts [8 0 R] /ToUnicode 9 0 R >>",
		fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test-CID /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 /W [32 126 %d] >>", width),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cmap), cmap),
	}
	d.FontF3 = 7
	return d.Bytes()
}
