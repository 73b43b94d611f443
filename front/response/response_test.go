package response

import "testing"

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
