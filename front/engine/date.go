package engine

import (
	"strings"
	"time"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Since returns the start of time range r ending at now: a day, seven
// days, a calendar month or a year before; ok is false for a value that
// is no time_range. Drivers whose providers take a start date or time
// (Stack Exchange's fromdate, arXiv's submittedDate, Hacker News's
// created_at_i) compute it with it.
func Since(r response.TimeRange, now time.Time) (t time.Time, ok bool) {
	switch r {
	case response.TimeRangeDay:
		return now.AddDate(0, 0, -1), true
	case response.TimeRangeWeek:
		return now.AddDate(0, 0, -7), true
	case response.TimeRangeMonth:
		return now.AddDate(0, -1, 0), true
	case response.TimeRangeYear:
		return now.AddDate(-1, 0, 0), true
	}
	return time.Time{}, false
}

// Count returns the number of results to keep of n asked: LIM-S3 for
// none.
func Count(n int) int {
	if n < 1 {
		return limits.S3ResultsPerEngine
	}
	return n
}

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
