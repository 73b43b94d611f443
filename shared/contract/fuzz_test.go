package contract

import (
	"net/http"
	"testing"
)

// FuzzParseRequest: any header values either fail with ErrContract or
// parse into a Request that survives Apply and ParseRequest unchanged,
// with a profile, engine and limits inside their vocabularies.
func FuzzParseRequest(f *testing.F) {
	f.Add("1", "engine", "wikipedia", "2000", "1048576")
	f.Add("", "", "", "", "")
	f.Add("1", "agent", "", "1", "5242880")
	f.Add("2", "root", "Wiki", "-1", "0x10")
	f.Add("1", "engine", "a-b_c9", "999999999999999999", "+5")
	f.Fuzz(func(t *testing.T, version, profile, engine, deadline, maxBytes string) {
		h := http.Header{}
		for k, v := range map[string]string{HeaderVersion: version, HeaderProfile: profile, HeaderEngine: engine, HeaderDeadline: deadline, HeaderMaxBytes: maxBytes} {
			if v != "" {
				h.Set(k, v)
			}
		}
		r, err := ParseRequest(h)
		if err != nil {
			return
		}
		if !r.Profile.Valid() || (r.Profile == ProfileEngine) != (r.Engine != "") || r.Engine != "" && !ValidEngineID(r.Engine) {
			t.Fatalf("parsed outside the vocabulary: %+v", r)
		}
		if r.Deadline < 0 || r.MaxBytes < 0 {
			t.Fatalf("negative limit: %+v", r)
		}
		h2 := http.Header{}
		r.Apply(h2)
		r2, err := ParseRequest(h2)
		if err != nil || r2 != r {
			t.Fatalf("round trip: %+v -> %+v, %v", r, r2, err)
		}
	})
}
