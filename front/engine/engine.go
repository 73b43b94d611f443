// Package engine is the driver abstraction of REQ-ENG-001: what a search
// engine is asked (Request), what it answers (Result), what it declares
// about itself (Properties), how its failures are classified (Error, with
// the classes of docs/design/decisions.md, engine error classes), and
// how a driver talks to the network:
// only through the egress, with Fetch; and what an engine type is before
// any engine of it is configured (Descriptor). Each engine type has its
// own driver package (front/engine/wikipedia, front/engine/brave), which
// returns its Descriptor; front/engine/drivers is the registry of them by
// type name. This package and the drivers know nothing of the
// configuration: the configuration consults the registry.
package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rypsok/rypsok/front/response"
)

// Request is what one engine is asked in one call.
type Request struct {
	// Query is the query after the privacy check, trimmed.
	Query string
	// Category is the call's category ("general", "news", "science",
	// "it"), for a provider that searches by category (SearXNG); "" for
	// none.
	Category string
	// Language is a configured language code ("en", "ja", "zh-tw"); the
	// engine's driver maps it to the provider's own code.
	Language string
	// Region is an ISO 3166 country code ("US") or "" for none.
	Region string
	// SafeSearch is "off", "moderate" or "strict".
	SafeSearch string
	// TimeRange is "", "day", "week", "month" or "year".
	TimeRange string
	// Count is the number of results asked (LIM-S3).
	Count int
}

// Result is one result as the engine sent it.
type Result struct {
	// Title, URL and Snippet are the provider's text. Unless Decoded, Title
	// and Snippet still carry markup and entities (clean_markup_text
	// applies); when Decoded, a parser already decoded them
	// (clean_decoded_text applies).
	Title   string
	URL     string
	Snippet string
	// Date is an RFC 3339 date ("2026-09-01") when the engine gave one.
	Date    string
	Decoded bool
}

// Properties are what a driver declares about its engine (REQ-ENG-010).
type Properties struct {
	// RatePerSecond and Burst pace requests to the provider (REQ-CMP-002):
	// the smallest plan's pace, which an operator's [engines.<id>]
	// rate_per_second and burst may raise; zero RatePerSecond means no
	// pacing.
	RatePerSecond float64
	Burst         int
	// MaxRatePerSecond and MaxBurst are the most the provider publishes
	// for any plan (or, for an instance that is the operator's, a bound
	// of sense): a configuration asking more is refused.
	MaxRatePerSecond float64
	MaxBurst         int
	// Concurrency caps requests in flight to the provider; zero means no cap.
	Concurrency int
	// MaxQueryChars is the longest query the provider takes, in characters;
	// zero means LIM-S1.
	MaxQueryChars int
	// TimeRanges lists the time_range values the engine honors.
	TimeRanges []string
	// Languages reports whether the engine honors a configured language;
	// nil means every language.
	Languages func(lang string) bool
	// Cacheable reports whether the provider's terms allow storing answers.
	Cacheable bool
	// Attribution reports whether results must name the engine.
	Attribution bool
	// MaxBodyBytes bounds the provider's response body.
	MaxBodyBytes int64
}

// AllTimeRanges returns every time_range value (response.TimeRanges), for
// the Properties.TimeRanges of an engine that honors them all.
func AllTimeRanges() []string {
	ranges := make([]string, 0, len(response.TimeRanges()))
	for _, r := range response.TimeRanges() {
		ranges = append(ranges, string(r))
	}
	return ranges
}

// Error is a classified engine failure. Class is one of
// response.EngineClasses; RetryAfter is the provider's Retry-After or
// rate-limit reset when it gave one.
type Error struct {
	Class      response.EngineClass
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return "engine: " + string(e.Class)
	}
	return fmt.Sprintf("engine: %s: %v", e.Class, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of class c.
func Errorf(c response.EngineClass, format string, args ...any) *Error {
	return &Error{Class: c, Err: fmt.Errorf(format, args...)}
}

// ClassOf returns the class of err: its *Error's class, timeout for a
// context deadline, network otherwise.
func ClassOf(err error) response.EngineClass {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Class
	case errors.Is(err, context.DeadlineExceeded):
		return response.ClassTimeout
	}
	return response.ClassNetwork
}

// Config is what a driver is built from: the configured engine.
type Config struct {
	// ID is the engine's configured identifier.
	ID string
	// Endpoint, if non-empty, replaces the provider's base URL (scheme,
	// host, port) and prefixes its path (docs/design/decisions.md, engine
	// endpoints), e.g.
	// "http://127.0.0.1:8080/wiki".
	Endpoint string
	// Credential is the API key, "" for keyless engines.
	Credential string
	// UserAgent is rypsok's User-Agent (docs/design: engines and compliance).
	UserAgent string
	// Languages are the configured search languages.
	Languages []string
}

// Driver is one engine type's implementation. A driver owns its request
// building and its parsing (REQ-ENG-005); it reaches the network only
// through the *http.Client it is given, whose transport is the egress.
type Driver interface {
	// Properties declares the engine's properties. Its slices may be the
	// driver's own: the caller reads them and does not modify them.
	Properties() Properties
	// Search asks the engine. Every failure is an *Error.
	Search(ctx context.Context, c *http.Client, req Request) ([]Result, error)
}

// Factory builds a driver from its configuration.
type Factory func(Config) (Driver, error)
