package response

import (
	"strings"
	"testing"
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
		{"every engine unreachable", AllFailed([]EngineClass{ClassNetwork, ClassNetwork}), "the network is unreachable"},
		{"one engine unreachable", AllFailed([]EngineClass{ClassNetwork}), "the network is unreachable"},
		{"rate limited and blocked: one cause", AllFailed([]EngineClass{ClassRateLimited, ClassBlocked}), "rate limiting or blocking"},
		{"unreadable answers", AllFailed([]EngineClass{ClassBadResponse, ClassTooLarge}), "could be read"},
		{"a keyless cause and a timeout", AllFailed([]EngineClass{ClassNetwork, ClassTimeout, ClassNetwork}), "every engine failed (network, timeout)"},
		{"every class", AllFailed(EngineClasses()), "bad_response, too_large); try again later"},
		{"no class known", AllFailed(nil), unavailableMessages[ReasonAllFailed]},
		{"skipped for the time range", NoEngine([]Reason{ReasonTimeRange, ReasonTimeRange}), "without time_range"},
		{"skipped in cooldown", NoEngine([]Reason{ReasonCooldown}), "paused after repeated failures"},
		{"skipped for different reasons", NoEngine([]Reason{ReasonLanguage, ReasonCooldown, ReasonLanguage}), "(skipped for language, cooldown)"},
		{"skipped for every reason", NoEngine(SkipReasons()), "cooldown, rate_limited); change the request or try again later"},
		{"none skipped", NoEngine(nil), unavailableMessages[ReasonNoEngine]},
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
