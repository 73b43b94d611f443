// Package secrets finds credentials in text a caller wants to send out (a
// search query, a URL), so rypsok can refuse or mask them before anything
// leaves the host (REQ-PRIV-002; the formats: docs/design/decisions.md,
// secret formats).
//
// It knows a fixed list of high-confidence formats, one Kind each. A match
// is confirmed by the format's checksum where the format has one (GitHub,
// npm and routable GitLab tokens), otherwise by its structure (fixed
// lengths, alphabets, numeric segments, the JSON inside a JWT), so that
// look-alikes pass: a hex hash, a UUID, a placeholder such as
// "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", a string one character too long.
// A match is word-bounded: a credential must not be the inside of a longer
// run of token characters ("xghp_…", a 37-character run after "ghp_").
//
// Matching reads a credential as a reader would, through whatever was
// added to it that a reader skips or folds:
//   - invisible characters, the set the content boundary removes
//     (REQ-SEC-015): zero-width spaces and joiners, the word joiner, the
//     byte-order mark, the soft hyphen, bidi marks, variation selectors,
//     tag characters, and control characters other than tab, line feed
//     and carriage return;
//   - marks (a combining acute accent, an enclosing circle), and
//     compatibility forms, folded as NFKD folds them: fullwidth
//     "ｇｈｐ＿…" is "ghp_…", the fullwidth full stop U+FF0E a ".";
//   - blanks other than the space and the tab, which separate words: line
//     breaks, no-break spaces, the line separator, the ideographic space,
//     the braille pattern blank and the like. A credential reads through
//     them, and also starts or ends at one, so that one glued to words by
//     blanks is still found ("see" + line break + "ghp_ab" + line break +
//     "cd…" + line break + "thanks"). So it does where a mark was removed
//     or a folded run begins or ends, where a reader who does not fold
//     sees a boundary ("ａ" + "ghp_…"). Its end is looked for at the first
//     24 such places from its 20th byte on (maxCuts, minLength), which
//     bounds the work: a token with a blank after every character and a
//     word glued after it is found up to 43 characters long; a credential
//     starting at one is read within 2,048 bytes (maxSpan, LIM-F9), more
//     than any query or URL the tools accept;
//   - percent-encoding, decoded again and again until no escape is left,
//     at most 4 times (maxDecodes); each step is read, and an escape
//     reads through blanks too ("%" + line break + "41").
//
// A finding's Position and Length count characters of the caller's
// original string, spanning whatever was read through inside it, so that
// "ghp_" + U+200B + "abc…" is found at the "g".
//
// The package stops at detection: it does no I/O, keeps no state and knows
// no policy. Whether a finding refuses the call, masks it or is only
// logged is the caller's decision (LIM-P1).
//
// Not detected, on purpose: Stripe publishable keys (pk_live_, pk_test_:
// they are meant to be public), Twilio Account SIDs (AC…: an identifier),
// GitHub's and GitLab's instance-specific custom prefixes, and credentials
// encoded other than by percent-encoding (base64 of a token, say).
package secrets

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind names a credential format. It is the value reported as detail.kind
// of a denied error (docs/design: errors), from a closed vocabulary: the
// constants below.
type Kind string

// The kinds, one per format. Each format's rules and sources are at its
// matcher in formats.go.
const (
	KindAWSAccessKeyID         Kind = "aws_access_key_id"
	KindGitHubToken            Kind = "github_token"
	KindGitHubFineGrainedToken Kind = "github_fine_grained_token"
	KindGitLabToken            Kind = "gitlab_token"
	KindSlackToken             Kind = "slack_token"
	KindSlackWebhook           Kind = "slack_webhook"
	KindStripeKey              Kind = "stripe_key"
	KindGoogleAPIKey           Kind = "google_api_key"
	KindOpenAIAPIKey           Kind = "openai_api_key"
	KindAnthropicAPIKey        Kind = "anthropic_api_key"
	KindNPMToken               Kind = "npm_token"
	KindHuggingFaceToken       Kind = "huggingface_token"
	KindSendGridAPIKey         Kind = "sendgrid_api_key"
	KindTwilioAPIKey           Kind = "twilio_api_key"
	KindJWT                    Kind = "jwt"
	KindPrivateKey             Kind = "private_key"
)

// Kinds lists every Kind, in the order of the constants. The package never
// reads it; it is there for documentation, schemas and tests.
var Kinds = []Kind{
	KindAWSAccessKeyID, KindGitHubToken, KindGitHubFineGrainedToken,
	KindGitLabToken, KindSlackToken, KindSlackWebhook, KindStripeKey,
	KindGoogleAPIKey, KindOpenAIAPIKey, KindAnthropicAPIKey, KindNPMToken,
	KindHuggingFaceToken, KindSendGridAPIKey, KindTwilioAPIKey, KindJWT,
	KindPrivateKey,
}

// Finding is one credential found in a string.
//
// Position is the offset of its first character, counted in characters
// (runes; an invalid UTF-8 byte counts as one) of the caller's original
// string, before anything was skipped, folded or decoded: it is the
// detail.position of a denied error. Length is its length in characters
// of that original string, spanning the invisible characters, marks,
// blanks and percent-escapes inside it; those just before or after the
// credential are not part of it.
type Finding struct {
	Kind     Kind
	Position int
	Length   int
}

// maxRounds bounds the rounds of Find and FindInURL (see fixpoint).
const maxRounds = 4

// maxDecodes bounds how many times a text is percent-decoded (decodings).
// Each decoding shortens the text and only the last is kept, so memory
// stays within a few times the input's size.
const maxDecodes = 4

// Find returns the credentials in s, in order of position and
// non-overlapping, read as the package doc says: through invisible
// characters, marks, compatibility forms, blanks and percent-encoding (a
// query may carry an escaped key as well as a URL). A nil result means
// none was found.
func Find(s string) []Finding {
	return fixpoint(s, findOnce)
}

// FindInURL returns the credentials in a URL the caller wants to fetch, in
// order of position and non-overlapping. It reads the string as Find
// does (raw, then percent-decoded until no escape is left: a key written
// "sk%2Dant-api03-…" in a query string is found) and, in one more reading,
// with "+" as a space, as in a form-encoded query. Positions and lengths
// are always in characters of the raw string; a finding read from decoded
// text spans the whole escapes it came from. Where readings disagree,
// overlapping findings are merged into one that covers both, with the kind
// of the one that starts first.
//
// FindInURL finds everything Find finds, and more; it does not parse the
// URL, so it accepts any string.
func FindInURL(rawURL string) []Finding {
	return fixpoint(rawURL, findInURLOnce)
}

// Mask returns s with the text of each finding replaced by
// "[REDACTED:<kind>]"; the invisible characters inside a finding go with
// it. Findings that overlap one kept earlier, or that lie outside s, are
// skipped; a finding reaching past the end of s is cut at the end.
func Mask(s string, fs []Finding) string {
	out, _ := mask(s, fs)
	return out
}

// findOnce reads s and its percent-decodings (see readings).
func findOnce(s string) []Finding { return merge(readings(runeView(s), nil)) }

// findInURLOnce reads a URL as findOnce reads s and, if it has a "+",
// again with "+" as a space before decoding, as in a form-encoded query (a
// "+" decoded from "%2B" stays a "+"). That second reading matters only to
// a PEM header, whose spaces a "+" can stand for (to every other format a
// "+" and a space are the same boundary), and decoding keeps a header that
// holds no escape: so only its last decoding is read.
func findInURLOnce(s string) []Finding {
	v := runeView(s)
	fs := readings(v, nil)
	if strings.IndexByte(s, '+') >= 0 {
		var last view
		for d := range v.plusAsSpace().decodings {
			last = d
		}
		fs = read(last, fs)
	}
	return merge(fs)
}

// readings appends to fs the findings in v and in each of its decodings: a
// value encoded three times is read as its writer meant it, and each step
// between is read too.
func readings(v view, fs []Finding) []Finding {
	for d := range v.decodings {
		fs = read(d, fs)
	}
	return fs
}

// read appends to fs the findings in v read joined and, if that differs
// from reading it spaced, spaced too (see joined and spaced).
func read(v view, fs []Finding) []Finding {
	j, soft := v.joined()
	fs = append(fs, j.findings(scan(j.text, soft))...)
	if soft != nil {
		sp := v.spaced()
		fs = append(fs, sp.findings(scan(sp.text, nil))...)
	}
	return fs
}

// fixpoint runs find over s and then over s masked, until masking reveals
// nothing new (at most maxRounds rounds), and returns every finding in
// coordinates of s. A credential glued to another one can be hidden by it
// (its word boundary fails on the other's last character) and show once
// the other is masked; the extra rounds report it too, so that
// Find(Mask(s, Find(s))) is empty. In ordinary text the first round finds
// nothing and there is no second.
func fixpoint(s string, find func(string) []Finding) []Finding {
	all := find(s)
	for round := 1; round < maxRounds && len(all) > 0; round++ {
		masked, repl := mask(s, all)
		more := find(masked)
		if len(more) == 0 {
			break
		}
		for _, f := range more {
			all = append(all, unmask(f, repl))
		}
		all = merge(all)
	}
	return all
}

// replacement records one masked finding: the characters [outStart, outEnd)
// of the masked string replaced [inStart, inEnd) of the original.
type replacement struct{ outStart, outEnd, inStart, inEnd int }

// mask masks s and reports where each replacement went.
func mask(s string, fs []Finding) (string, []replacement) {
	if len(fs) == 0 {
		return s, nil
	}
	n := utf8.RuneCountInString(s)
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b Finding) int { return a.Position - b.Position })
	keep := sorted[:0]
	last := 0
	for _, f := range sorted {
		if f.Length <= 0 || f.Position < last || f.Position >= n {
			continue // empty, overlapping or outside s
		}
		f.Length = min(f.Length, n-f.Position)
		keep = append(keep, f)
		last = f.Position + f.Length
	}
	if len(keep) == 0 {
		return s, nil
	}
	// Byte offsets of each kept finding's start and end, in one pass.
	want := make([]int, 0, 2*len(keep))
	for _, f := range keep {
		want = append(want, f.Position, f.Position+f.Length)
	}
	offs := make([]int, 0, len(want))
	k := 0
	for i := range s {
		for len(offs) < len(want) && want[len(offs)] == k {
			offs = append(offs, i)
		}
		k++
	}
	for len(offs) < len(want) {
		offs = append(offs, len(s))
	}
	var b strings.Builder
	b.Grow(len(s) + 24*len(keep))
	repl := make([]replacement, 0, len(keep))
	from, out := 0, 0
	for j, f := range keep {
		lo, hi := offs[2*j], offs[2*j+1]
		b.WriteString(s[from:lo])
		out += utf8.RuneCountInString(s[from:lo])
		text := "[REDACTED:" + string(f.Kind) + "]"
		b.WriteString(text)
		w := utf8.RuneCountInString(text)
		repl = append(repl, replacement{out, out + w, f.Position, f.Position + f.Length})
		out += w
		from = hi
	}
	b.WriteString(s[from:])
	return b.String(), repl
}

// unmask maps a finding in a masked string back to the original string. A
// finding that touches a replacement (none can: no format contains "[" or
// "]") is widened to cover the whole masked finding.
func unmask(f Finding, repl []replacement) Finding {
	start := mapOut(f.Position, repl, true)
	end := mapOut(f.Position+f.Length, repl, false)
	return Finding{Kind: f.Kind, Position: start, Length: end - start}
}

// mapOut maps a character offset of the masked string to the original. An
// offset inside a replacement maps to the replacement's start (low) or end.
func mapOut(p int, repl []replacement, low bool) int {
	delta := 0
	for _, r := range repl {
		switch {
		case p <= r.outStart:
			return p + delta
		case p < r.outEnd:
			if low {
				return r.inStart
			}
			return r.inEnd
		}
		delta = r.inEnd - r.outEnd
	}
	return p + delta
}

// merge sorts findings by position and merges overlapping ones: the merged
// finding spans both and keeps the kind of the one that starts first (the
// longer one on a tie).
func merge(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	slices.SortStableFunc(fs, func(a, b Finding) int {
		if a.Position != b.Position {
			return a.Position - b.Position
		}
		return b.Length - a.Length
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		last := &out[len(out)-1]
		if f.Position < last.Position+last.Length {
			if e := f.Position + f.Length; e > last.Position+last.Length {
				last.Length = e - last.Position
			}
			continue
		}
		out = append(out, f)
	}
	return out
}
