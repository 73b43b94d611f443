package engine

import (
	"strings"
	"time"
)

// LeadingDate returns the date (YYYY-MM-DD) that s starts with, when
// nothing follows it or what follows starts with one of the bytes of
// seps ("T" for an ISO date-time, "T " to allow a space as well); "" when
// s starts with no valid date. Drivers turn their providers' timestamps
// into Result.Date with it.
func LeadingDate(s, seps string) string {
	if len(s) < len(time.DateOnly) {
		return ""
	}
	d, rest := s[:len(time.DateOnly)], s[len(time.DateOnly):]
	if rest != "" && !strings.ContainsRune(seps, rune(rest[0])) {
		return ""
	}
	if _, err := time.Parse(time.DateOnly, d); err != nil {
		return ""
	}
	return d
}
