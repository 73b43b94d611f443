package secrets

// Builders of credentials in real formats, written from the providers'
// descriptions independently of the detector (base62 through math/big,
// base36 through strconv), so that a test does not check the code against
// itself. No credential appears literally in the tests: every one is built
// at run time from a seeded generator, which also keeps secret scanners
// (push protection) quiet about this repository.

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"hash/crc32"
	"math/big"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
)

const (
	alphaNum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	letters    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	base64URL  = alphaNum + "-_"
	lowerHex   = "0123456789abcdef"
	base32Alph = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	digits     = "0123456789"
)

// rnd returns n characters of alphabet, determined by seed.
func rnd(seed uint64, alphabet string, n int) string {
	r := rand.New(rand.NewPCG(seed, 0x5ec7e75))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// githubChecksum is the CRC-32 of s in GitHub's base62 (0-9A-Za-z),
// zero-padded to 6. math/big writes base 62 as 0-9a-zA-Z: swap the cases.
func githubChecksum(s string) string {
	v := new(big.Int).SetUint64(uint64(crc32.ChecksumIEEE([]byte(s)))).Text(62)
	swapped := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, v)
	return strings.Repeat("0", 6-len(swapped)) + swapped
}

// githubToken builds a classic GitHub token: prefix, n random characters,
// checksum.
func githubToken(prefix string, seed uint64, n int) string {
	body := rnd(seed, alphaNum, n)
	return prefix + body + githubChecksum(body)
}

// npmToken builds an npm access token.
func npmToken(seed uint64) string { return githubToken("npm_", seed, 30) }

// fineGrainedToken builds a fine-grained GitHub PAT: prefix, 22, "_", 43,
// 8 characters of base32(SHA-256(everything before)), 8 more.
func fineGrainedToken(seed uint64) string {
	head := "github_pat_11" + rnd(seed, alphaNum, 20) + "_" + rnd(seed+1, alphaNum, 43)
	sum := sha256.Sum256([]byte(head))
	return head + base32.StdEncoding.EncodeToString(sum[:])[:8] + rnd(seed+2, alphaNum, 8)
}

// routableGitLabToken builds a routable GitLab token the way GitLab's
// Authn::TokenField::Generator::RoutableToken does: 16 random bytes, the
// routing payload and its size byte in base64url, the version (when
// versioned), the payload's length in base36, the CRC-32 in base36.
func routableGitLabToken(prefix string, seed uint64, routing string, versioned bool) string {
	random := rnd(seed, alphaNum, 16)
	payload := base64.RawURLEncoding.EncodeToString([]byte(random + routing + string(rune(len(routing)))))
	holder := pad(strconv.FormatUint(uint64(len(payload)), 36), 2)
	s := prefix + payload + "." + holder
	if versioned {
		s = prefix + payload + ".01." + holder
	}
	return s + pad(strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(s))), 36), 7)
}

// withHolder returns a versioned routable GitLab token with its length
// holder replaced and its CRC recomputed.
func withHolder(tok, holder string) string {
	n := len(tok) - 9
	s := tok[:n] + holder
	return s + pad(strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(s))), 36), 7)
}

func pad(s string, n int) string { return strings.Repeat("0", n-len(s)) + s }

// jwt builds a compact JWS from JSON header and payload and a signature.
func jwt(header, payload, sig string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload)) + "." + sig
}

// jwtHS256 is a typical signed JWT.
func jwtHS256(seed uint64) string {
	return jwt(`{"alg":"HS256","typ":"JWT"}`,
		`{"sub":"`+rnd(seed, digits, 10)+`","name":"Ada Lovelace","iat":1516239022}`,
		rnd(seed+1, base64URL, 43))
}

// Builders of the formats without checksum.
func awsKey(prefix string, seed uint64) string { return prefix + rnd(seed, base32Alph, 16) }
func googleKey(seed uint64) string             { return "AIza" + rnd(seed, base64URL, 35) }
func stripeKey(prefix string, seed uint64, n int) string {
	return prefix + rnd(seed, alphaNum, n)
}
func openAILegacy(seed uint64) string {
	return "sk-" + rnd(seed, alphaNum, 20) + "T3BlbkFJ" + rnd(seed+1, alphaNum, 20)
}
func openAIKey(label string, seed uint64, half int) string {
	return "sk-" + label + rnd(seed, base64URL, half) + "T3BlbkFJ" + rnd(seed+1, base64URL, half-1) + "A"
}
func anthropicKey(version string, seed uint64) string {
	return "sk-ant-" + version + rnd(seed, base64URL, 93) + "AA"
}
func hfToken(prefix string, seed uint64) string { return prefix + rnd(seed, letters, 34) }
func sendGridKey(seed uint64) string {
	return "SG." + rnd(seed, base64URL, 22) + "." + rnd(seed+1, base64URL, 43)
}
func twilioKey(prefix string, seed uint64) string { return prefix + rnd(seed, lowerHex, 32) }
func slackBot(seed uint64) string {
	return "xoxb-" + rnd(seed, digits, 13) + "-" + rnd(seed+1, digits, 13) + "-" + rnd(seed+2, alphaNum, 24)
}
func slackUser(seed uint64) string {
	return "xoxp-" + rnd(seed, digits, 12) + "-" + rnd(seed+1, digits, 12) + "-" + rnd(seed+2, digits, 12) + "-" + rnd(seed+3, lowerHex, 32)
}
func slackApp(seed uint64) string {
	return "xapp-1-A" + rnd(seed, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "-" + rnd(seed+1, digits, 13) + "-" + rnd(seed+2, lowerHex, 64)
}
func slackWebhookURL(seed uint64) string {
	return "https://hooks.slack.com/services/T" + rnd(seed, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 8) +
		"/B" + rnd(seed+1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "/" + rnd(seed+2, alphaNum, 24)
}
func slackTriggerURL(seed uint64) string {
	return "https://hooks.slack.com/triggers/T" + rnd(seed, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) +
		"/" + rnd(seed+1, digits, 13) + "/" + rnd(seed+2, lowerHex, 32)
}

// pemBody is a few lines of base64, as in a PEM file.
func pemBody(seed uint64) string {
	b64 := alphaNum + "+/"
	return rnd(seed, b64, 64) + "\n" + rnd(seed+1, b64, 64) + "\n" + rnd(seed+2, b64, 20) + "=="
}

// breakLast returns s with its last character changed (a wrong checksum).
func breakLast(s string) string {
	c := s[len(s)-1]
	d := byte('A')
	if c == 'A' {
		d = 'B'
	}
	return s[:len(s)-1] + string(d)
}

// fullwidth returns s with its printable ASCII characters but the space
// in their fullwidth forms (U+FF01..U+FF5E).
func fullwidth(s string) string {
	return strings.Map(func(r rune) rune {
		if '!' <= r && r <= '~' {
			return r - '!' + 0xFF01
		}
		return r
	}, s)
}

// encode returns s with every byte percent-encoded, then its "%" encoded
// again, times times in all.
func encode(s string, times int) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return nest(b.String(), times-1)
}

// queryEscape returns s passed through url.QueryEscape times times.
func queryEscape(s string, times int) string {
	for range times {
		s = url.QueryEscape(s)
	}
	return s
}

// nest encodes the "%" of s times times.
func nest(s string, times int) string {
	for range times {
		s = strings.ReplaceAll(s, "%", "%25")
	}
	return s
}

// at returns one finding.
func at(k Kind, pos, length int) []Finding {
	return []Finding{{Kind: k, Position: pos, Length: length}}
}

// runes is len in characters.
func runes(s string) int { return len([]rune(s)) }
