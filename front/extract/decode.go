package extract

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// prescanBytes is how far Decode looks for a <meta> charset (REQ-PAGE-007).
// When the first prescanBytes hold none, the rest of the <head> is read up
// to lateMetaBytes, as a browser does when the parser meets a late
// declaration and re-decodes.
const (
	prescanBytes  = 1024
	lateMetaBytes = 64 << 10
)

// Decode returns body as UTF-8 following REQ-PAGE-007, in this order: a
// byte-order mark (which, as in browsers, outranks the header); the
// Content-Type header's charset; UTF-8 when the whole body is valid UTF-8;
// the <meta charset> or http-equiv declaration in the first 1024 bytes (or,
// failing that, later in the <head>); windows-1252. Bytes invalid in the
// chosen encoding become U+FFFD, so the result is always valid UTF-8. A
// leading BOM is dropped.
func Decode(body []byte, contentType string) (string, error) {
	enc := encodingFor(body, contentType)
	var out string
	if enc == nil {
		out = strings.ToValidUTF8(string(body), "\uFFFD")
	} else {
		b, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			return "", err
		}
		out = strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return strings.TrimPrefix(out, "\uFEFF"), nil
}

// encodingFor picks the encoding of body; nil means UTF-8.
func encodingFor(body []byte, contentType string) encoding.Encoding {
	switch {
	case bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}):
		return nil
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if e, ok := lookup(params["charset"]); ok {
			return e
		}
	}
	if utf8.Valid(body) {
		return nil
	}
	if e, ok := metaCharset(body); ok {
		return e
	}
	return charmap.Windows1252
}

// lookup maps a WHATWG encoding label to an encoding; UTF-8 is nil.
func lookup(label string) (encoding.Encoding, bool) {
	label = strings.TrimSpace(label)
	if label == "" {
		return nil, false
	}
	e, name := charset.Lookup(label)
	if e == nil {
		return nil, false
	}
	if name == "utf-8" {
		return nil, true
	}
	return e, true
}

// metaCharset finds a charset declared by a <meta> element: first in the
// first prescanBytes, then in the rest of the head.
func metaCharset(body []byte) (encoding.Encoding, bool) {
	if e, ok, _ := scanMeta(body, prescanBytes); ok {
		return e, true
	}
	if e, ok, _ := scanMeta(body, lateMetaBytes); ok {
		return e, true
	}
	return nil, false
}

// scanMeta tokenizes at most limit bytes of body, stopping at <body>, and
// returns the encoding of the first <meta> that declares a known one.
func scanMeta(body []byte, limit int) (encoding.Encoding, bool, bool) {
	if len(body) > limit {
		body = body[:limit]
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nil, false, false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return nil, false, true
			case "meta":
				if !hasAttr {
					continue
				}
				var cs, equiv, content string
				for {
					k, v, more := z.TagAttr()
					switch string(k) {
					case "charset":
						cs = string(v)
					case "http-equiv":
						equiv = string(v)
					case "content":
						content = string(v)
					}
					if !more {
						break
					}
				}
				if cs == "" && strings.EqualFold(strings.TrimSpace(equiv), "content-type") {
					cs = charsetFromContent(content)
				}
				if e, ok := lookup(cs); ok {
					// A page that says UTF-16 in ASCII is not UTF-16 (HTML §13.2.3.3).
					if strings.HasPrefix(strings.ToLower(strings.TrimSpace(cs)), "utf-16") {
						return nil, true, false
					}
					return e, true, false
				}
			}
		}
	}
}

// charsetFromContent extracts charset=X from a meta content attribute.
func charsetFromContent(s string) string {
	i := strings.Index(strings.ToLower(s), "charset")
	if i < 0 {
		return ""
	}
	s = strings.TrimLeft(s[i+len("charset"):], " \t\r\n\f")
	if !strings.HasPrefix(s, "=") {
		return ""
	}
	s = strings.TrimLeft(s[1:], " \t\r\n\f")
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		if j := strings.IndexByte(s[1:], q); j >= 0 {
			return s[1 : 1+j]
		}
		return ""
	}
	if j := strings.IndexAny(s, " \t\r\n\f;"); j >= 0 {
		s = s[:j]
	}
	return s
}
