package boundary

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Pattern is one rule of the instruction-like pattern list
// (docs/design/decisions.md, instruction-like content), for documentation:
// its family name, the rule as the matcher reads it, and an example it
// matches.
type Pattern struct {
	Name    string // family: role_marker, ignore_previous, chat_template_token...
	Rule    string // the rule, in the notation of the package documentation
	Example string // a text the rule matches
}

// Patterns lists every rule InstructionLike applies: the literal rules,
// the word rules, and the letters rule. It is built from the rules
// themselves, so the list cannot drift from the matcher; the slice is
// the caller's.
func Patterns() []Pattern {
	compileRules()
	return slices.Clone(patterns)
}

// patterns is what Patterns returns, filled by compileRules.
var patterns []Pattern

// InstructionLike reports whether s contains instruction-like content:
// text that matches a rule of Patterns, read case-insensitively, after
// invisible characters are dropped, Markdown backslash escapes undone and
// character references decoded (so the Markdown of a fetched page is read
// as its reader sees it: "&lt;|im\_start|&gt;" reads "<|im_start|>"), and
// the text is folded (NFKD, marks dropped, lower case, Cyrillic and Greek
// look-alikes of Latin letters read as those letters), and insensitive to
// the spacing and punctuation between words. White-space controls (\t \n \v \f \r, U+0085, U+2028,
// U+2029) separate words here, as any space does, where RemoveInvisible
// would drop \v, \f and U+0085: the detector reads a raw text at least as
// finely as the cleaned one (the pipeline runs it on cleaned text). It
// takes time linear in len(s).
func InstructionLike(s string) bool {
	_, ok := matchInstruction(s)
	return ok
}

// matchInstruction returns the Name of the first rule s matches.
func matchInstruction(s string) (string, bool) {
	compileRules()
	f := foldText(s)
	for _, r := range literalRules {
		if r.match(f) {
			return r.name, true
		}
	}
	for i, w := range f.words {
		for _, r := range wordAnchors[w.id] {
			if r.match(f, i) {
				return r.name, true
			}
		}
	}
	if squashedIgnore(f.letters) {
		return nameIgnorePrevious, true
	}
	return "", false
}

// folded is s as the rules read it.
type folded struct {
	compact string // folded, white space removed: where literal tokens are looked for
	letters string // the words, concatenated
	words   []word
}

// word is one run of letters and digits, as offsets into letters and its
// id in the vocabulary of the rules, with what surrounds it.
type word struct {
	start, end int
	id         int32
	lead       bool // first word of the text, or after a line break or sentence punctuation
	hash       bool // a '#' stands between the previous word and this one
	colon      bool // a ':' stands between this word and the next
}

// foldText folds s: invalid UTF-8 and every character RemoveInvisible may
// remove are dropped (joiners and selectors included), then NFKD; then
// Markdown escapes and character references are read through
// (readThrough), and what they decoded to is dropped and decomposed the
// same way; then marks are dropped, letters lower-cased and look-alikes
// mapped. Hidden characters go before references are decoded, so that
// "&l\u200Bt;" reads "<" as "&lt;" does.
func foldText(s string) *folded {
	d := visibleNFKD(s)
	if r := readThrough(d); r != d {
		d = visibleNFKD(r)
	}

	f := &folded{}
	var compact, letters strings.Builder
	compact.Grow(len(d))
	letters.Grow(len(d))
	inWord, lead, hash := false, true, false
	for _, r := range d {
		if r >= 0x300 && (unicode.IsMark(r) || classOf(r) != visible) {
			continue
		}
		r = lookAlike(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if !inWord {
				f.words = append(f.words, word{start: letters.Len(), lead: lead, hash: hash})
				inWord, lead, hash = true, false, false
			}
			letters.WriteRune(r)
			compact.WriteRune(r)
			continue
		}
		if inWord {
			f.words[len(f.words)-1].end = letters.Len()
			inWord = false
		}
		switch {
		case unicode.IsSpace(r):
			lead = lead || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029
			continue
		case r == '#':
			hash = true
		case r == ':':
			lead = true
			if n := len(f.words); n > 0 {
				f.words[n-1].colon = true
			}
		case strings.ContainsRune(sentenceEnd, r):
			lead = true
		}
		compact.WriteRune(r)
	}
	if inWord {
		f.words[len(f.words)-1].end = letters.Len()
	}
	f.compact, f.letters = compact.String(), letters.String()
	for i := range f.words {
		f.words[i].id = vocabulary[f.letters[f.words[i].start:f.words[i].end]]
	}
	return f
}

// visibleNFKD drops from s invalid UTF-8 and every character
// RemoveInvisible may remove (joiners and selectors included, white space
// kept), then decomposes it (NFKD).
func visibleNFKD(s string) string {
	if plain(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if (r == utf8.RuneError && n == 1) || (classOf(r) != visible && !unicode.IsSpace(r)) {
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFKD.String(b.String())
}

// sentenceEnd are the characters after which a word leads (as after a line
// break), besides ':'.
const sentenceEnd = ".!?;|>])}\"'»”"

// lookAlike lower-cases r, reading a Cyrillic or Greek look-alike of a
// Latin letter as that letter.
func lookAlike(r rune) rune {
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	if l, ok := lookAlikes[r]; ok {
		return l
	}
	return unicode.ToLower(r)
}

// lookAlikes maps Cyrillic and Greek letters that look like Latin ones.
// Capitals map by their shape, so Greek Ν reads n although ν reads v.
var lookAlikes = func() map[rune]rune {
	m := map[rune]rune{}
	for _, p := range []string{
		// Cyrillic capitals, small letters; Greek capitals, small letters.
		"АaВbЕeЅsІiЈjКkМmНhОoРpСcТtУyХx",
		"аaвbеeѕsіiјjкkмmнhоoрpсcтtуyхxԁdһhӏlԛqԝwүy",
		"ΑaΒbΕeΖzΗhΙiΚkΜmΝnΟoΡpΤtΥyΧx",
		"αaβbεeιiκkνvοoρpτtυuχxγyωw",
	} {
		rs := []rune(p)
		for i := 0; i+1 < len(rs); i += 2 {
			m[rs[i]] = rs[i+1]
		}
	}
	return m
}()
