package pdf

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/binary"
	"errors"
	"io"
	"strconv"

	"github.com/rypsok/rypsok/front/pdf/internal/lpdf"
	"github.com/rypsok/rypsok/shared/limits"
)

// The document's objects are found by scanning its bytes, never by
// trusting its cross-reference table: the reader (github.com/ledongthuc/pdf)
// sizes its table from the file's own numbers (a /Size of 10^12 is an
// allocation it cannot survive) and follows /Prev chains without end. The
// scan finds every "N G obj" (a later definition replaces an earlier one,
// as incremental updates do), the members of every object stream, and the
// trailer's /Root and /Info, then hands the reader the same bytes with a
// cross-reference stream of its own at the end. A damaged or truncated
// file thus yields the objects it still holds (pdftotext rebuilds its
// table the same way).

// maxObjectTokens bounds the tokens of one object (a direct object's
// dictionary, a member of an object stream) and the operands a content
// stream or CMap pushes before an operator takes them: the reader holds
// every token of an object, and every operand of a run, at about 40 bytes
// each, so a megabyte of "1 " would cost it tens of megabytes. An object
// over it is left out (it reads as null); a stream over it is refused
// (errHostile). Real objects and runs measured hundreds of tokens.
const maxObjectTokens = 20000

// maxObjStmMembers bounds the members of one object stream.
const maxObjStmMembers = 10000

// entry is one object of the rebuilt table: a direct object at offset
// (in the body), or the index-th member of object stream stm.
type entry struct {
	offset int64
	gen    uint16
	stm    uint32
	index  uint16
	inStm  bool
	at     int64 // position of the definition, for "the later one wins"
}

// layout is what the scan learned of a body.
type layout struct {
	start     int              // offset of "%PDF-" in the body
	entries   map[uint32]entry // object number → where it is
	root      uint32
	info      uint32 // 0: none
	objStms   map[int64]bool
	truncated bool // objects beyond LIM-F12, or an object cut off
}

// scan reads body's objects. It fails only when body is no PDF, is
// encrypted, or has no catalog.
func scan(body []byte, b *budget) (*layout, error) {
	start := bytes.Index(body[:min(len(body), 1024)], []byte("%PDF-"))
	if start < 0 {
		return nil, errNotPDF
	}
	if hasEncrypt(body) {
		return nil, errEncrypted
	}
	l := &layout{start: start, entries: make(map[uint32]entry), objStms: make(map[int64]bool)}
	type stmAt struct {
		num  uint32
		data int64
		at   int64
		dict []byte
	}
	var stms []stmAt
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte("obj"))
		if j < 0 {
			break
		}
		kw := i + j
		i = kw + 3
		if i < len(body) && !isSpaceOrDelim(body[i]) {
			continue
		}
		num, gen, at, ok := objHeader(body, kw)
		if !ok {
			continue
		}
		if len(l.entries) >= limits.F12PDFObjects || num >= limits.F12PDFObjects {
			l.truncated = true
			continue
		}
		dict, data := objExtent(body, i)
		if data < 0 && dict == nil {
			l.truncated = true // cut off: no endobj, no stream
			continue
		}
		if tokens(dict, false) > maxObjectTokens {
			l.truncated = true
			continue
		}
		l.entries[num] = entry{offset: int64(at), gen: gen, at: int64(at)}
		if data >= 0 && bytes.Contains(dict, []byte("/ObjStm")) {
			stms = append(stms, stmAt{num: num, data: int64(data), at: int64(at), dict: dict})
			l.objStms[int64(data)] = true
		}
	}
	for _, s := range stms {
		if e, ok := l.entries[s.num]; !ok || e.at != s.at {
			continue // replaced by a later definition
		}
		if err := l.members(body, s.num, s.at, s.data, s.dict, b); err != nil {
			return nil, err
		}
	}
	l.root = lastRef(body, "/Root")
	if _, ok := l.entries[l.root]; !ok {
		l.root = catalogByScan(body, l.entries)
	}
	if l.root == 0 {
		return nil, errNoCatalog
	}
	l.info = lastRef(body, "/Info")
	if _, ok := l.entries[l.info]; !ok {
		l.info = 0
	}
	return l, nil
}

// members adds the members of the object stream num (data at data) to l,
// each within maxObjectTokens.
func (l *layout) members(body []byte, num uint32, at, data int64, dict []byte, b *budget) error {
	n, first := dictInt(dict, "/N"), dictInt(dict, "/First")
	if n <= 0 || first <= 0 {
		return nil
	}
	if n > maxObjStmMembers {
		l.truncated = true
		return nil
	}
	layers, err := b.inflate(body[data:])
	if err != nil {
		if errors.Is(err, errBudget) {
			return err
		}
		l.truncated = true
		return nil
	}
	// The layer the reader reads: one a Flate filter the dictionary names.
	plain := layers[max(0, min(len(layers), bytes.Count(dict, []byte("/FlateDecode")))-1)]
	hdr := plain[:min(len(plain), int(first))]
	type member struct{ num, off int }
	ms := make([]member, 0, n)
	for k := 0; k < n; k++ {
		var a, o int
		var ok bool
		if a, hdr, ok = nextInt(hdr); !ok {
			break
		}
		if o, hdr, ok = nextInt(hdr); !ok {
			break
		}
		ms = append(ms, member{a, o})
	}
	for k, m := range ms {
		lo := first + m.off
		hi := len(plain)
		if k+1 < len(ms) {
			hi = first + ms[k+1].off
		}
		if m.num <= 0 || m.num >= limits.F12PDFObjects || lo < 0 || lo > len(plain) || hi < lo || hi > len(plain) {
			l.truncated = true
			continue
		}
		if tokens(plain[lo:hi], false) > maxObjectTokens {
			l.truncated = true
			continue
		}
		if len(l.entries) >= limits.F12PDFObjects {
			l.truncated = true
			return nil
		}
		if e, ok := l.entries[uint32(m.num)]; ok && e.at > at {
			continue // a later direct definition wins
		}
		l.entries[uint32(m.num)] = entry{stm: num, index: uint16(k), inStm: true, at: at}
	}
	return nil
}

// file is the body with a header the reader accepts before it and the
// rebuilt cross-reference stream after it, read without copying body.
type file struct {
	head, body, tail []byte
}

// header replaces whatever version the body declares: the reader refuses
// any but 1.0 to 1.7, and reads 2.0 files as well.
const header = "%PDF-1.7\n"

// build returns the file the reader reads: header, body, and a
// cross-reference stream (uncompressed, so that it costs no inflation)
// with the trailer's /Root and /Info.
func (l *layout) build(body []byte) *file {
	var maxNum uint32
	for n := range l.entries {
		maxNum = max(maxNum, n)
	}
	xnum := maxNum + 1
	size := int(xnum) + 1
	base := int64(len(header))
	rows := make([]byte, 0, size*7)
	row := func(t byte, f2 uint32, f3 uint16) {
		rows = append(rows, t)
		rows = binary.BigEndian.AppendUint32(rows, f2)
		rows = binary.BigEndian.AppendUint16(rows, f3)
	}
	tailAt := base + int64(len(body)) + 1
	for n := 0; n < size; n++ {
		e, ok := l.entries[uint32(n)]
		switch {
		case uint32(n) == xnum:
			row(1, uint32(tailAt), 0)
		case !ok || n == 0:
			row(0, 0, 65535)
		case e.inStm:
			row(2, e.stm, e.index)
		default:
			row(1, uint32(base+e.offset), e.gen)
		}
	}
	var t bytes.Buffer
	t.WriteString("\n")
	t.WriteString(strconv.Itoa(int(xnum)))
	t.WriteString(" 0 obj\n<< /Type /XRef /Size ")
	t.WriteString(strconv.Itoa(size))
	t.WriteString(" /W [1 4 2] /Root ")
	t.WriteString(strconv.Itoa(int(l.root)))
	t.WriteString(" 0 R")
	if l.info != 0 {
		t.WriteString(" /Info ")
		t.WriteString(strconv.Itoa(int(l.info)))
		t.WriteString(" 0 R")
	}
	t.WriteString(" /Length ")
	t.WriteString(strconv.Itoa(len(rows)))
	t.WriteString(" >>\nstream\n")
	t.Write(rows)
	t.WriteString("\nendstream\nendobj\nstartxref\n")
	t.WriteString(strconv.FormatInt(tailAt, 10))
	t.WriteString("\n%%EOF\n")
	return &file{head: []byte(header), body: body, tail: t.Bytes()}
}

// size is the file's length.
func (f *file) size() int64 { return int64(len(f.head) + len(f.body) + len(f.tail)) }

// readAt copies the file's bytes at off into p.
func (f *file) readAt(p []byte, off int64) int {
	n := 0
	for _, seg := range [][]byte{f.head, f.body, f.tail} {
		if off < int64(len(seg)) && n < len(p) {
			c := copy(p[n:], seg[off:])
			n += c
			off = 0
			continue
		}
		off -= int64(len(seg))
		if off < 0 {
			off = 0
		}
	}
	return n
}

// at returns the byte at off, or 0.
func (f *file) at(off int64) byte {
	var b [1]byte
	if off < 0 || f.readAt(b[:], off) == 0 {
		return 0
	}
	return b[0]
}

// streamStart reports whether off is where a stream's data starts: right
// after the "stream" keyword and its end of line, as the reader places it.
func (f *file) streamStart(off int64) bool {
	end := off
	if f.at(end-1) == '\n' {
		end--
		if f.at(end-1) == '\r' {
			end--
		}
	} else if f.at(end-1) == '\r' {
		end--
	} else {
		return false
	}
	var kw [6]byte
	if end < 6 || f.readAt(kw[:], end-6) != 6 {
		return false
	}
	return string(kw[:]) == "stream"
}

// maxFilterLayers bounds the Flate layers looked through: a filter array
// of Flate filters is decoded by the reader one layer after another, and
// a bomb may be deflated twice to hide in a small first layer.
const maxFilterLayers = 4

// inflate returns data's first stream decoded as the reader would decode
// it, layer by layer: Flate, or ASCII85 then Flate, then Flate again while
// the result is Flate; anything else is returned as it is, up to the next
// "endstream", with its ASCII85 decoding when it has one. Every layer is charged to b and held to LIM-F11's
// per-stream share (errHostile). The last is the reader's text when the
// stream's filters are those; the caller judges every layer, since a
// layer may only look like Flate.
func (b *budget) inflate(data []byte) (layers [][]byte, err error) {
	var r io.Reader
	if zr, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
		r = zr
	} else if zr, err := zlib.NewReader(ascii85.NewDecoder(&alphaReader{r: bytes.NewReader(data)})); err == nil {
		r = zr
	} else {
		if i := bytes.Index(data, []byte("endstream")); i >= 0 {
			data = data[:i]
		}
		if len(data) > limits.F11PDFStreamBytes {
			return nil, errHostile // the reader would hold it whole as well
		}
		layers = [][]byte{data}
		// ASCII85 alone: no larger than the data, but its operands are
		// the decoded text's, so that text is judged too.
		dec, err := io.ReadAll(ascii85.NewDecoder(&alphaReader{r: bytes.NewReader(data)}))
		if err == nil && len(dec) > 0 {
			layers = append(layers, dec)
		}
		return layers, nil
	}
	for len(layers) < maxFilterLayers {
		out, err := b.drain(r)
		if err != nil {
			return nil, err
		}
		layers = append(layers, out)
		zr, zerr := zlib.NewReader(bytes.NewReader(out))
		if zerr != nil {
			break
		}
		r = zr
	}
	return layers, nil
}

// drain reads r to its end, or to damage (what was decoded counts),
// within LIM-F11's per-stream share, charging b.
func (b *budget) drain(r io.Reader) ([]byte, error) {
	var out bytes.Buffer
	buf := make([]byte, 32<<10)
	for {
		if err := b.check(); err != nil {
			return nil, err
		}
		n, err := r.Read(buf)
		if out.Len()+n > limits.F11PDFStreamBytes {
			return nil, errHostile
		}
		if err := b.charge(int64(n)); err != nil {
			return nil, err
		}
		out.Write(buf[:n])
		if err != nil {
			return out.Bytes(), nil
		}
	}
}

// alphaReader drops the white space ASCII85 may hold, as the reader does,
// and stops at its end mark.
type alphaReader struct {
	r    io.ByteReader
	done bool
}

func (a *alphaReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && !a.done {
		c, err := a.r.ReadByte()
		if err != nil {
			a.done = true
			break
		}
		switch {
		case c == '~':
			a.done = true
		case c > ' ':
			p[n] = c
			n++
		}
	}
	if n == 0 && a.done {
		return 0, io.EOF
	}
	return n, nil
}

// objHeader parses "N G" before the "obj" at kw: the object number, its
// generation and the offset of N.
func objHeader(body []byte, kw int) (num uint32, gen uint16, at int, ok bool) {
	i := kw
	skip := func() {
		for i > 0 && isSpace(body[i-1]) {
			i--
		}
	}
	digits := func() (int, bool) {
		end := i
		for i > 0 && body[i-1] >= '0' && body[i-1] <= '9' && end-i < 10 {
			i--
		}
		if i == end || i > 0 && body[i-1] >= '0' && body[i-1] <= '9' {
			return 0, false
		}
		v, err := strconv.Atoi(string(body[i:end]))
		return v, err == nil
	}
	skip()
	g, ok := digits()
	if !ok || g > 65535 || i == kw {
		return 0, 0, 0, false
	}
	e := i
	skip()
	if i == e {
		return 0, 0, 0, false
	}
	n, ok := digits()
	if !ok || n <= 0 || i > 0 && !isSpaceOrDelim(body[i-1]) {
		return 0, 0, 0, false
	}
	return uint32(n), uint16(g), i, true
}

// objExtent returns the object text after "obj" at i up to its stream
// keyword or endobj (dict), and where its stream data starts (-1: none).
// A nil dict with -1 is an object cut off.
func objExtent(body []byte, i int) (dict []byte, data int) {
	rest := body[i:]
	// endobj is looked for only before the next object's " obj": every
	// search then ends where the next object begins, and a body of many
	// objects without endobj is scanned once, not once an object.
	within := rest
	if next := bytes.Index(rest, []byte(" obj")); next >= 0 {
		within = rest[:next]
	}
	end := bytes.Index(within, []byte("endobj"))
	if end < 0 && len(within) < len(rest) {
		end = len(within) // the next object begins before any endobj
	}
	head := rest // where the stream keyword may be: before the object's end
	if end >= 0 {
		head = rest[:end]
	}
	s := bytes.Index(head, []byte("stream"))
	if s >= 0 && !bytes.HasSuffix(rest[:s], []byte("end")) {
		d := s + len("stream")
		if d < len(rest) && rest[d] == '\r' {
			d++
		}
		if d < len(rest) && rest[d] == '\n' {
			d++
		}
		return rest[:s], i + d
	}
	if end < 0 {
		return nil, -1
	}
	return rest[:end], -1
}

// tokens counts the operand tokens of b, approximately and never fewer
// than the reader pushes; with ops, a run restarts at every operator
// (a keyword other than true, false, null and R), as a content stream's
// operands are taken by its operators.
func tokens(b []byte, ops bool) int {
	run, most := 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '%':
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
			continue
		case c == '(':
			i = stringEnd(b, i)
		case isDelim(c):
			i++
		default:
			j := i
			for j < len(b) && !isSpace(b[j]) && !isDelim(b[j]) {
				j++
			}
			w := b[i:j]
			i = j
			if ops && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '\'' || c == '"') && !valueKeyword(w) {
				run = 0
				continue
			}
		}
		run++
		most = max(most, run)
	}
	return most
}

// valueKeyword reports the keywords that are operands, not operators.
func valueKeyword(w []byte) bool {
	switch string(w) {
	case "true", "false", "null", "R":
		return true
	}
	return false
}

// stringEnd returns the offset after the literal string opening at i.
func stringEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}

// hasEncrypt reports an /Encrypt entry that names a dictionary.
func hasEncrypt(body []byte) bool {
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte("/Encrypt"))
		if j < 0 {
			return false
		}
		i += j + len("/Encrypt")
		rest := bytes.TrimLeft(body[i:min(len(body), i+32)], " \t\r\n")
		if bytes.HasPrefix(rest, []byte("<<")) {
			return true
		}
		if _, r, ok := nextInt(rest); ok {
			if _, r, ok = nextInt(r); ok && bytes.HasPrefix(bytes.TrimLeft(r, " \t\r\n"), []byte("R")) {
				return true
			}
		}
	}
}

// lastRef returns N of the last "key N G R" in body, or 0.
func lastRef(body []byte, key string) uint32 {
	for end := len(body); ; {
		j := bytes.LastIndex(body[:end], []byte(key))
		if j < 0 {
			return 0
		}
		end = j
		rest := body[j+len(key) : min(len(body), j+len(key)+32)]
		n, r, ok := nextInt(rest)
		if !ok {
			continue
		}
		if _, r, ok = nextInt(r); ok && bytes.HasPrefix(bytes.TrimLeft(r, " \t\r\n"), []byte("R")) && n > 0 {
			return uint32(n)
		}
	}
}

// catalogByScan finds a direct object whose dictionary says /Type /Catalog.
func catalogByScan(body []byte, entries map[uint32]entry) uint32 {
	var best uint32
	var at int64 = -1
	for n, e := range entries {
		if e.inStm {
			continue
		}
		k := bytes.Index(body[e.offset:], []byte("obj"))
		if k < 0 {
			continue
		}
		d, _ := objExtent(body, int(e.offset)+k+3)
		d = d[:min(len(d), 4096)]
		if (bytes.Contains(d, []byte("/Type/Catalog")) || bytes.Contains(d, []byte("/Type /Catalog"))) && e.offset > at {
			best, at = n, e.offset
		}
	}
	return best
}

// dictInt returns the integer after key in d, or 0.
func dictInt(d []byte, key string) int {
	for i := 0; ; {
		j := bytes.Index(d[i:], []byte(key))
		if j < 0 {
			return 0
		}
		i += j + len(key)
		if i < len(d) && !isSpaceOrDelim(d[i]) {
			continue // a longer name
		}
		if v, _, ok := nextInt(d[i:]); ok {
			return v
		}
	}
}

// nextInt reads a non-negative integer after white space.
func nextInt(b []byte) (int, []byte, bool) {
	b = bytes.TrimLeft(b, " \t\r\n\f\x00")
	i := 0
	for i < len(b) && i < 10 && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, b, false
	}
	v, err := strconv.Atoi(string(b[:i]))
	return v, b[i:], err == nil
}

// isSpace, isDelim and isSpaceOrDelim read bytes as the reader does.
func isSpace(c byte) bool        { return lpdf.IsSpace(c) }
func isDelim(c byte) bool        { return lpdf.IsDelim(c) }
func isSpaceOrDelim(c byte) bool { return isSpace(c) || isDelim(c) }
