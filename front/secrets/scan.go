package secrets

import "strings"

// A match is a credential found in a view's text: bytes [start, end).
type match struct {
	start, end int
	kind       Kind
}

// scan finds the credentials in t, left to right, non-overlapping. At each
// position where a format can start, the matchers for that first byte are
// tried in turn; the first that matches wins and scanning resumes after it.
// Every matcher reads a bounded number of bytes past its anchor, or a run
// that no other anchor can start inside, so scanning is linear in len(t).
func scan(t string) []match {
	var out []match
	var pem pemState
	for i := 0; i < len(t); {
		// Only a PEM header may start inside a word.
		if t[i] != '-' && !startsWord(t, i) {
			i++
			continue
		}
		end, kind := -1, Kind("")
		switch t[i] {
		case 'A':
			end, kind = matchAWS(t, i)
			if end < 0 {
				end, kind = matchGoogle(t, i)
			}
		case 'g':
			end, kind = matchGitHub(t, i)
			if end < 0 {
				end, kind = matchGitLab(t, i)
			}
		case 'G':
			end, kind = matchGitLab(t, i)
		case 'n':
			end, kind = matchNPM(t, i)
		case 'x':
			end, kind = matchSlackToken(t, i)
		case 'h':
			end, kind = matchSlackWebhook(t, i)
			if end < 0 {
				end, kind = matchHuggingFace(t, i)
			}
		case 'a':
			end, kind = matchHuggingFace(t, i)
		case 's':
			end, kind = matchOpenAIOrAnthropic(t, i)
			if end < 0 {
				end, kind = matchStripe(t, i)
			}
		case 'r':
			end, kind = matchStripe(t, i)
		case 'S':
			end, kind = matchSendGrid(t, i)
			if end < 0 {
				end, kind = matchTwilio(t, i)
			}
		case 'e':
			end, kind = matchJWT(t, i)
		case '-':
			end, kind = pem.match(t, i)
		}
		if end > i {
			out = append(out, match{i, end, kind})
			i = end
			continue
		}
		i++
	}
	return out
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
