package secrets

import (
	"slices"
	"strings"

	"github.com/rypsok/rypsok/shared/limits"
)

// A match is a credential found in a view's text: bytes [start, end).
type match struct {
	start, end int
	kind       Kind
}

// scan finds the credentials in t, left to right, non-overlapping. At each
// position where a format can start, the matchers for that first byte are
// tried in turn (starts); the first that matches wins and scanning resumes
// after it. Every matcher reads a bounded number of bytes past its anchor,
// or a run that no other anchor can start inside, so scanning is linear in
// len(t).
//
// soft lists the soft boundaries of t (view.joined: where a blank or a
// mark was removed, or a folded run begins or ends), ascending; nil when
// there are none. A credential reads through them, and may also start or
// end at one of them (see scanner.at). A start at one may lie inside a
// run, but it is read within maxSpan bytes, at most maxCuts+1 times, so
// scanning stays linear.
func scan(t string, soft []int) []match {
	var out []match
	s := scanner{t: t, soft: soft, hard: -1}
	for i := 0; i < len(t); {
		// Only a PEM header may start inside a word.
		c := t[i]
		if c == '-' || anchors[c] && (startsWord(t, i) || len(soft) > 0 && s.afterBlank(i)) {
			at := s.match // without soft boundaries, at is match
			if len(soft) > 0 {
				at = s.at
			}
			if end, kind := at(t, i); end > i {
				out = append(out, match{i, end, kind})
				i = end
				continue
			}
		}
		i++
	}
	return out
}

// Bounds on reading through soft boundaries (scanner.at), so that
// scanning stays linear however many there are.
const (
	// maxSpan bounds, in bytes, a credential that starts at a soft
	// boundary glued to a word, and how far ends at soft boundaries are
	// looked for: as long as the longest URL web_fetch takes (a query is
	// shorter), so that in what the tools accept a credential is always
	// read whole, a long JWT included.
	maxSpan = limits.F9URLChars
	// maxCuts bounds the soft boundaries tried as the end of one credential.
	maxCuts = 24
	// minLength is the length of the shortest credential of any format
	// (an AWS access key ID): a soft boundary closer to its start is no
	// end.
	minLength = 20
)

// A scanner holds the state of one scan.
type scanner struct {
	t    string
	soft []int
	next int // index in soft of the first offset not before the last one asked
	hard int // the last stop returned; -1 before the first
	pem  pemState
}

// stop returns the offset of the first byte at or after t[i] that is not
// in reads, or len(t). The offsets asked must not decrease.
func (s *scanner) stop(i int) int {
	if s.hard < i {
		s.hard = reads.run(s.t, i)
	}
	return s.hard
}

// afterBlank reports whether t[i] is at a soft boundary (most often, a
// blank was removed just before it). The offsets asked must not decrease.
func (s *scanner) afterBlank(i int) bool {
	if len(s.soft) == 0 {
		return false
	}
	for s.next < len(s.soft) && s.soft[s.next] < i {
		s.next++
	}
	return s.next < len(s.soft) && s.soft[s.next] == i
}

// at returns the end and kind of the credential that starts at t[i] (t is
// s.t), or -1. A credential reads through soft boundaries ("ghp_abc" + line break +
// "def…"), may end at one that is followed by a word, and may start at one
// glued to a word before it; so it is looked for in t read through every
// soft boundary, then in t cut at each soft boundary from minLength bytes
// after i on, up to the first byte no format holds and within maxSpan (at
// most maxCuts of them, the furthest first: the longest reading wins). One
// that starts at a soft boundary glued to a word is read from there,
// within maxSpan; a match reaching that bound is refused, since the bound
// is no boundary. A PEM header is read in the whole text, where its footer
// is.
func (s *scanner) at(t string, i int) (int, Kind) {
	if t[i] == '-' {
		return s.match(t, i)
	}
	afterBlank := s.afterBlank(i) // which also brings s.next to i
	base, full := 0, len(t)
	if afterBlank && !startsWord(t, i) {
		base, full = i, min(len(t), i+maxSpan)
	}
	if e, k := s.match(t[base:full], i-base); e > 0 {
		if e += base; e < full || full == len(t) {
			return e, k
		}
		if _, ok := slices.BinarySearch(s.soft, full); ok {
			return e, k
		}
	}
	lo := s.next
	for lo < len(s.soft) && s.soft[lo] < i+minLength {
		lo++
	}
	// A matcher reads no further than the first byte that no format holds
	// (a space, say): a cut there or after it reads as the whole text.
	reach := min(s.stop(i), i+maxSpan)
	hi := lo
	for hi < len(s.soft) && hi-lo < maxCuts && s.soft[hi] < reach {
		hi++
	}
	for k := hi - 1; k >= lo; k-- {
		if e, kind := s.match(t[base:s.soft[k]], i-base); e > 0 {
			return e + base, kind
		}
	}
	return -1, none
}

// starts lists, for each byte a credential can start with, the matchers
// of the formats that start with it, in the order they are tried. A PEM
// header, which starts with "-", is matched apart (pemState).
var starts = [256][]func(t string, i int) (int, Kind){
	'A': {matchAWS, matchGoogle},
	'g': {matchGitHub, matchGitLab},
	'G': {matchGitLab},
	'n': {matchNPM},
	'x': {matchSlackToken},
	'h': {matchSlackWebhook, matchHuggingFace},
	'a': {matchHuggingFace},
	's': {matchOpenAIOrAnthropic, matchStripe},
	'r': {matchStripe},
	'S': {matchSendGrid, matchTwilio},
	'e': {matchJWT},
}

// anchors is the set of bytes some format starts with, PEM's "-" aside.
var anchors = func() (c class) {
	for b, ms := range starts {
		c[b] = len(ms) > 0
	}
	return c
}()

// match tries the matchers for the byte t[i]; the first that matches wins.
// t is s.t or a part of it; a PEM header is only looked for in s.t itself.
func (s *scanner) match(t string, i int) (int, Kind) {
	if t[i] == '-' {
		return s.pem.match(t, i, s.soft)
	}
	for _, m := range starts[t[i]] {
		if end, kind := m(t, i); end > 0 {
			return end, kind
		}
	}
	return -1, none
}

// A class is a set of ASCII bytes.
type class [256]bool

func newClass(sets ...string) *class {
	var c class
	for _, s := range sets {
		for i := 0; i < len(s); i++ {
			if i+2 < len(s) && s[i+1] == '-' {
				for b := s[i]; b <= s[i+2]; b++ {
					c[b] = true
				}
				i += 2
				continue
			}
			c[s[i]] = true
		}
	}
	return &c
}

func (c *class) has(b byte) bool { return c[b] }

// run returns the end of the longest run of bytes of c starting at i.
func (c *class) run(t string, i int) int {
	for i < len(t) && c[t[i]] {
		i++
	}
	return i
}

// upTo returns the end of the run of bytes of c starting at i, or i+n+1
// if that run is longer than n: enough to tell a run of at most n bytes
// from a longer one without reading the longer one to its end.
func (c *class) upTo(t string, i, n int) int {
	end := min(len(t), i+n+1)
	for i < end && c[t[i]] {
		i++
	}
	return i
}

// all reports whether every byte of s is in c.
func (c *class) all(s string) bool {
	for i := 0; i < len(s); i++ {
		if !c[s[i]] {
			return false
		}
	}
	return true
}

var (
	alnum    = newClass("A-Z", "a-z", "0-9")
	letter   = newClass("A-Z", "a-z")
	digit    = newClass("0-9")
	hexDigit = newClass("0-9", "a-f", "A-F")
	b32      = newClass("A-Z", "2-7") // RFC 4648 base32
	b36      = newClass("0-9", "a-z") // lower-case base36 (GitLab)
	// word is the alphabet of tokens: a credential must not be preceded or
	// followed by one of these bytes (it would be the inside of a longer
	// token). It is also the base64url alphabet.
	word = newClass("A-Z", "a-z", "0-9", "_", "-")
	// reads is every byte a format holds but the PEM's: token bytes and the
	// separators of JWTs, routable GitLab tokens and webhook URLs.
	reads = newClass("A-Z", "a-z", "0-9", "_", "-", ".", "/", ":")
)

// startsWord reports whether a credential may start at t[i]: at the start
// of t, after a byte that is not a token byte, or right after a
// percent-escape ("q=%20ghp_…" in a raw URL).
func startsWord(t string, i int) bool {
	if i == 0 || !word.has(t[i-1]) {
		return true
	}
	return i >= 3 && t[i-3] == '%' && isHex(t[i-2]) && isHex(t[i-1])
}

// endsWord reports whether a credential may end at i: at the end of t or
// before a byte that is not a token byte.
func endsWord(t string, i int) bool {
	return i == len(t) || !word.has(t[i])
}

// plausible reports whether the random part of a format that has no
// checksum could be random: it rejects placeholders, a part with a run of
// six or more identical bytes ("xxxxxx", "000000") or with fewer distinct
// bytes than five (a third of its length, if shorter). A random part of
// the lengths used here fails this with a probability below one in ten
// thousand (32 hex digits, the worst case: about 2.6e-5).
func plausible(s string) bool {
	var seen class
	distinct, runLen := 0, 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			distinct++
		}
		if i > 0 && s[i] == s[i-1] {
			runLen++
			if runLen >= 5 {
				return false
			}
		} else {
			runLen = 0
		}
	}
	return distinct >= min(5, len(s)/3)
}

// hasPrefixAt reports whether t[i:] starts with p.
func hasPrefixAt(t string, i int, p string) bool {
	return strings.HasPrefix(t[i:], p)
}
