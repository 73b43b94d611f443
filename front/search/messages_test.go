package search

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/health"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// down is an engine whose server is gone: the egress cannot connect to
// it, and the engine fails with network.
func down(t *testing.T) *fake {
	f := newFake(t, wikipedia())
	f.srv.Close()
	return f
}

// TestAnErrorSaysWhatTheCallerCanDo reproduces issue 16's first hour: with
// no network, every engine failed with network and the model read "every
// engine failed; try again later", which a retry cannot cure. The message
// of unavailable now follows what the engines share (the reason stays in
// the vocabulary); different causes are named.
func TestAnErrorSaysWhatTheCallerCanDo(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   func(t *testing.T) *fake
		reason response.Reason
		says   string
	}{
		{"every engine unreachable", down, down, response.ReasonAllFailed, "network is unreachable"},
		{"every key refused", refuse(http.StatusUnauthorized), refuse(http.StatusUnauthorized), response.ReasonAllFailed, "API key"},
		{"every provider rate limiting", refuse(http.StatusTooManyRequests), refuse(http.StatusTooManyRequests), response.ReasonAllFailed, "try again in a few minutes"},
		{"every provider failing", refuse(http.StatusBadGateway), refuse(http.StatusInternalServerError), response.ReasonAllFailed, "server error"},
		{"one unreachable, one refusing its key", down, refuse(http.StatusUnauthorized), response.ReasonAllFailed, "every engine failed (network, unauthorized)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pipeline(t, Options{},
				engineSpec{"wikipedia", "wikipedia", general, tc.a(t)},
				engineSpec{"other", "wikipedia", general, tc.b(t)})
			_, e := p.Search(context.Background(), req("tides"))
			p.Wait()
			checkMessage(t, e, tc.reason, tc.says)
		})
	}
}

// TestNoEngineSaysWhatWouldLetOneServe: the engines skipped for one
// reason give its advice.
func TestNoEngineSaysWhatWouldLetOneServe(t *testing.T) {
	p := pipeline(t, Options{},
		engineSpec{"wikipedia", "wikipedia", general, newFake(t, wikipedia())},
		engineSpec{"other", "wikipedia", general, newFake(t, wikipedia())})
	r := req("tides")
	r.TimeRange = response.TimeRangeDay // Wikipedia cannot filter by time
	_, e := p.Search(context.Background(), r)
	checkMessage(t, e, response.ReasonNoEngine, "search without time_range")
}

func refuse(status int) func(t *testing.T) *fake {
	return func(t *testing.T) *fake { return newFake(t, fail(status)) }
}

func checkMessage(t *testing.T, e *response.Error, reason response.Reason, says string) {
	t.Helper()
	if e == nil || e.Body.Kind != response.KindUnavailable || e.Body.Detail.Reason != reason {
		t.Fatalf("got %+v, want unavailable, %s", e, reason)
	}
	msg := e.Body.Message
	if !strings.Contains(msg, says) {
		t.Errorf("message %q does not say %q", msg, says)
	}
	if n := utf8.RuneCountInString(msg); n > limits.I4MessageChars {
		t.Errorf("message of %d characters, over LIM-I4", n)
	}
}

// limitedFor is an engine answering 429 with Retry-After seconds.
func limitedFor(seconds string) func(t *testing.T) *fake {
	return func(t *testing.T) *fake {
		return newFake(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", seconds)
			w.WriteHeader(http.StatusTooManyRequests)
		})
	}
}

// TestRetryAfterIsTheEarliestReset: a search whose engines all failed for
// a rate limit carries the earliest reset a provider announced
// (retry_after_ms) and says to wait that long; one whose engines are all
// in cooldown carries the earliest end of a cooldown (the breaker's, here
// a minute, or the provider's longer Retry-After). A network failure
// carries none: waiting does not help.
func TestRetryAfterIsTheEarliestReset(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   func(t *testing.T) *fake
		first  response.Reason
		ms     int64 // -1: none
		second response.Reason
		ms2    int64
	}{
		{"rate limited for 120 s and 90 s", limitedFor("120"), limitedFor("90"), response.ReasonAllFailed, 90000, response.ReasonNoEngine, 90000},
		{"one rate limited without a reset", limitedFor("120"), refuse(http.StatusTooManyRequests), response.ReasonAllFailed, 120000, response.ReasonNoEngine, 60000},
		{"failing servers, then cooldowns", refuse(http.StatusBadGateway), refuse(http.StatusBadGateway), response.ReasonAllFailed, -1, response.ReasonNoEngine, 60000},
		{"unreachable", down, down, response.ReasonAllFailed, -1, response.ReasonNoEngine, 60000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
			tracker := health.New(health.Options{Now: func() time.Time { return now }, Failures: 1, Cooldown: time.Minute})
			p := pipeline(t, Options{Health: tracker},
				engineSpec{"wikipedia", "wikipedia", general, tc.a(t)},
				engineSpec{"other", "wikipedia", general, tc.b(t)})
			for i, want := range []struct {
				reason response.Reason
				ms     int64
			}{{tc.first, tc.ms}, {tc.second, tc.ms2}} {
				_, e := p.Search(context.Background(), req("tides"))
				p.Wait()
				if e == nil || e.Body.Detail.Reason != want.reason {
					t.Fatalf("search %d: got %+v, want %s", i, e, want.reason)
				}
				got := int64(-1)
				if e.Body.Detail.RetryAfterMs != nil {
					got = *e.Body.Detail.RetryAfterMs
				}
				if got != want.ms || (got >= 0) != strings.Contains(e.Body.Message, "retry after retry_after_ms") {
					t.Errorf("search %d: retry_after_ms %d, message %q; want %d", i, got, e.Body.Message, want.ms)
				}
			}
		})
	}
}
