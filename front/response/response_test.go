package response

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rypsok/rypsok/shared/limits"
)

// TestAToolErrorIsNotAGoError keeps *Error out of the error interface, so
// that a nil *Error returned by a service can never become a non-nil
// error (the typed-nil trap). A tool error is an answer, not a failure.
func TestAToolErrorIsNotAGoError(t *testing.T) {
	var e *Error
	if _, ok := any(e).(error); ok {
		t.Fatal("*response.Error implements error: a nil *Error stored in an error is not nil")
	}
}

// TestEveryVocabularyListIsTheCallersOwn: a caller that changes the list
// it got does not change what the next caller gets.
func TestEveryVocabularyListIsTheCallersOwn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(*testing.T)
	}{
		{"ErrorKinds", func(t *testing.T) { ownCopy(t, ErrorKinds) }},
		{"ReasonsOf(denied)", func(t *testing.T) { ownCopy(t, func() []Reason { return ReasonsOf(KindDenied) }) }},
		{"ReasonsOf(unavailable)", func(t *testing.T) { ownCopy(t, func() []Reason { return ReasonsOf(KindUnavailable) }) }},
		{"ReasonsOf(unsupported_content)", func(t *testing.T) { ownCopy(t, func() []Reason { return ReasonsOf(KindUnsupportedContent) }) }},
		{"NoticeCodes", func(t *testing.T) { ownCopy(t, NoticeCodes) }},
		{"SkipReasons", func(t *testing.T) { ownCopy(t, SkipReasons) }},
		{"DropReasons", func(t *testing.T) { ownCopy(t, DropReasons) }},
		{"EngineClasses", func(t *testing.T) { ownCopy(t, EngineClasses) }},
		{"EngineStates", func(t *testing.T) { ownCopy(t, EngineStates) }},
		{"Categories", func(t *testing.T) { ownCopy(t, Categories) }},
		{"TimeRanges", func(t *testing.T) { ownCopy(t, TimeRanges) }},
		{"HTTPRefusals", func(t *testing.T) { ownCopy(t, HTTPRefusals) }},
	} {
		t.Run(tc.name, tc.check)
	}
}

// ownCopy changes the first word of one list and checks that the next
// list still has the first word.
func ownCopy[T ~string](t *testing.T, list func() []T) {
	first := list()
	if len(first) == 0 {
		t.Fatal("empty list")
	}
	want := first[0]
	first[0] = "changed"
	if got := list()[0]; got != want {
		t.Errorf("after a caller changed its copy, the list starts %q, want %q", got, want)
	}
}

// TestOnlyDeniedUnavailableAndUnsupportedCarryReasons: the other kinds
// have no reason to list.
func TestOnlyDeniedUnavailableAndUnsupportedCarryReasons(t *testing.T) {
	for _, k := range ErrorKinds() {
		has := len(ReasonsOf(k)) > 0
		want := k == KindDenied || k == KindUnavailable || k == KindUnsupportedContent
		if has != want {
			t.Errorf("%s: has reasons %v, want %v", k, has, want)
		}
	}
}

// TestUnavailableMessagesFollowTheCause: a cause every engine shares has
// its advice; different causes are named, each once; every message stays
// within LIM-I4, even one naming every class.
func TestUnavailableMessagesFollowTheCause(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *Error
		says string
	}{
		{"every engine unreachable", AllFailed([]EngineClass{ClassNetwork, ClassNetwork}, 0), "the network is unreachable"},
		{"one engine unreachable", AllFailed([]EngineClass{ClassNetwork}, 0), "the network is unreachable"},
		{"rate limited and blocked: one cause", AllFailed([]EngineClass{ClassRateLimited, ClassBlocked}, 0), "rate limiting or blocking"},
		{"unreadable answers", AllFailed([]EngineClass{ClassBadResponse, ClassTooLarge}, 0), "could be read"},
		{"a keyless cause and a timeout", AllFailed([]EngineClass{ClassNetwork, ClassTimeout, ClassNetwork}, 0), "every engine failed (network, timeout)"},
		{"every class", AllFailed(EngineClasses(), 0), "bad_response, too_large); try again later"},
		{"no class known", AllFailed(nil, 0), unavailableMessages[ReasonAllFailed]},
		{"skipped for the time range", NoEngine([]Reason{ReasonTimeRange, ReasonTimeRange}, 0), "without time_range"},
		{"skipped in cooldown", NoEngine([]Reason{ReasonCooldown}, 0), "paused after repeated failures"},
		{"skipped for different reasons", NoEngine([]Reason{ReasonLanguage, ReasonCooldown, ReasonLanguage}, 0), "(skipped for language, cooldown)"},
		{"skipped for every reason", NoEngine(SkipReasons(), 0), "cooldown, rate_limited); change the request or try again later"},
		{"none skipped", NoEngine(nil, 0), unavailableMessages[ReasonNoEngine]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.e.Body
			if b.Kind != KindUnavailable || (b.Detail.Reason != ReasonAllFailed && b.Detail.Reason != ReasonNoEngine) {
				t.Fatalf("got %s, %s", b.Kind, b.Detail.Reason)
			}
			if !strings.Contains(b.Message, tc.says) {
				t.Errorf("message %q does not say %q", b.Message, tc.says)
			}
			if n := utf8.RuneCountInString(b.Message); n > limits.I4MessageChars {
				t.Errorf("message of %d characters, over LIM-I4", n)
			}
		})
	}
}

// TestRetryAfterOnlyWhenWaitingHelps: retry_after_ms is carried, and the
// message points at it, when every engine failed or was skipped for what
// passes with time (a rate limit, a block, a cooldown) and a reset is
// known; the earliest reset is rounded up to the millisecond and bounded
// by an hour. Any other cause, or no known reset, carries none.
func TestRetryAfterOnlyWhenWaitingHelps(t *testing.T) {
	const pointer = "retry after retry_after_ms"
	for _, tc := range []struct {
		name string
		e    *Error
		ms   int64 // -1: none
		says string
	}{
		{"all rate limited, a reset known", AllFailed([]EngineClass{ClassRateLimited, ClassRateLimited}, 1500*time.Millisecond), 1500, "rate limiting or blocking rypsok; " + pointer},
		{"rate limited and blocked", AllFailed([]EngineClass{ClassBlocked, ClassRateLimited}, 2*time.Second+time.Microsecond), 2001, pointer},
		{"all rate limited, no reset known", AllFailed([]EngineClass{ClassRateLimited}, 0), -1, "try again in a few minutes"},
		{"network: waiting will not help", AllFailed([]EngineClass{ClassNetwork, ClassNetwork}, time.Second), -1, "retrying will not help"},
		{"rate limited and network: mixed", AllFailed([]EngineClass{ClassRateLimited, ClassNetwork}, time.Second), -1, "every engine failed (rate_limited, network); try again later"},
		{"every engine at its pace", NoEngine([]Reason{ReasonRateLimited, ReasonRateLimited}, 800*time.Millisecond), 800, "at its provider's rate limit; " + pointer},
		{"all in cooldown", NoEngine([]Reason{ReasonCooldown}, 25*time.Second), 25000, "paused after repeated failures; " + pointer},
		{"cooldown and pace", NoEngine([]Reason{ReasonCooldown, ReasonRateLimited}, time.Second), 1000, "(skipped for cooldown, rate_limited); " + pointer},
		{"a time range skip: waiting will not help", NoEngine([]Reason{ReasonRateLimited, ReasonTimeRange}, time.Second), -1, "change the request"},
		{"a reset past an hour is an hour", NoEngine([]Reason{ReasonCooldown}, 3*time.Hour), 3600000, pointer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.e.Body
			got := int64(-1)
			if b.Detail.RetryAfterMs != nil {
				got = *b.Detail.RetryAfterMs
			}
			if got != tc.ms || !strings.Contains(b.Message, tc.says) {
				t.Errorf("retry_after_ms %d message %q; want %d and %q", got, b.Message, tc.ms, tc.says)
			}
			if n := utf8.RuneCountInString(b.Message); n > limits.I4MessageChars {
				t.Errorf("message of %d characters, over LIM-I4", n)
			}
		})
	}
}

// TestEveryFixedMessageFitsLIMI4: no message is cut by newError's bound.
func TestEveryFixedMessageFitsLIMI4(t *testing.T) {
	for _, m := range []map[Reason]string{unavailableMessages, deniedMessages, noEngineMessages} {
		for r, msg := range m {
			if n := utf8.RuneCountInString(msg); n > limits.I4MessageChars || n == 0 {
				t.Errorf("%s: message of %d characters", r, n)
			}
		}
	}
	for c, msg := range allFailedCauses {
		if n := utf8.RuneCountInString(msg); n > limits.I4MessageChars || n == 0 {
			t.Errorf("%s: message of %d characters", c, n)
		}
	}
}
