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
