package secrets

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"hash/crc32"
)

// base62Digits is the base62 alphabet of GitHub and npm tokens ("GMP"
// order: digits, upper case, lower case).
const base62Digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// base62CRCOK reports whether the last 6 characters of s are the CRC-32
// (IEEE) of the rest, in base62, zero-padded to 6 (62^6 > 2^32).
func base62CRCOK(s string) bool {
	n := len(s) - 6
	sum := crc32IEEE(s[:n])
	var buf [6]byte
	for k := 5; k >= 0; k-- {
		buf[k] = base62Digits[sum%62]
		sum /= 62
	}
	return string(buf[:]) == s[n:]
}

func crc32IEEE(s string) uint32 { return crc32.ChecksumIEEE([]byte(s)) }

// fineGrainedOK reports whether check is the first 8 characters of the
// base32 (RFC 4648, upper case) encoding of the SHA-256 of body.
func fineGrainedOK(body, check string) bool {
	sum := sha256.Sum256([]byte(body))
	var enc [56]byte // base32 of 32 bytes, padded
	base32.StdEncoding.Encode(enc[:], sum[:])
	return string(enc[:8]) == check
}

// parseBase36 parses lower-case base36 digits.
func parseBase36(s string) (uint64, bool) {
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'z':
			d = c - 'a' + 10
		default:
			return 0, false
		}
		n = n*36 + uint64(d)
	}
	return n, true
}

// jwtEnd returns the end of the JWT that starts at i, or -1: three
// base64url segments separated by ".", the header a JSON object with a
// string "alg", the payload a JSON object, the signature possibly empty.
// Both JSON segments start with "{" and so, in base64url, with "ey" ('{'
// then '"' or a space) or "ew" ('{' then a line break or tab).
func jwtEnd(t string, i int) int {
	if !jsonStart(t, i) {
		return -1
	}
	a := word.run(t, i)
	if a >= len(t) || t[a] != '.' || !jsonStart(t, a+1) {
		return -1
	}
	b := word.run(t, a+1)
	if b >= len(t) || t[b] != '.' {
		return -1
	}
	c := word.run(t, b+1)
	if !jsonObject(t[i:a], true) || !jsonObject(t[a+1:b], false) {
		return -1
	}
	return c
}

func jsonStart(t string, i int) bool {
	return i+1 < len(t) && t[i] == 'e' && (t[i+1] == 'y' || t[i+1] == 'w')
}

// jsonObject reports whether seg is base64url (without padding) of a JSON
// object; with alg, one whose "alg" member is a string.
func jsonObject(seg string, alg bool) bool {
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return false
	}
	if !alg {
		return true
	}
	v, ok := m["alg"]
	var s string
	return ok && len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil
}
