package contract

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of the contract. Every header whose name starts with
// HeaderPrefix belongs to the contract: the egress consumes those of a
// request and strips those of an upstream response, so only the egress
// can set them on an answer.
const (
	HeaderPrefix = "Rypsok-"
	// HeaderVersion carries Version; optional on a request, present on
	// every egress answer.
	HeaderVersion = "Rypsok-Egress-Version"
	// HeaderProfile names the Profile; absent means ProfileAgent.
	HeaderProfile = "Rypsok-Profile"
	// HeaderEngine names the engine id; required with ProfileEngine.
	HeaderEngine = "Rypsok-Engine"
	// HeaderDeadline is the request's time budget in whole milliseconds,
	// counted from its arrival at the egress; the egress uses the smaller
	// of it and its own limit (LIM-F4).
	HeaderDeadline = "Rypsok-Deadline-Ms"
	// HeaderMaxBytes is the request's body limit in bytes, counted after
	// decompression; the egress uses the smaller of it and LIM-F3.
	HeaderMaxBytes = "Rypsok-Max-Bytes"
	// HeaderRefusal is set, with a Reason, only on an answer the egress
	// made itself instead of forwarding one.
	HeaderRefusal = "Rypsok-Refusal"
	// TrailerEnd is the trailer of every forwarded body: an End.
	TrailerEnd = "Rypsok-End"
)

// maxEngineID bounds an engine identifier.
const maxEngineID = 64

// ErrContract is wrapped by every error of ParseRequest.
var ErrContract = errors.New("contract: malformed request")

// Request is what a request tells the egress about itself.
type Request struct {
	// Profile is the profile to judge it by; empty means ProfileAgent.
	Profile Profile
	// Engine is the engine id, required with ProfileEngine and empty
	// otherwise.
	Engine string
	// Deadline is the request's time budget; zero means the egress's own.
	Deadline time.Duration
	// MaxBytes is the body limit; zero means the egress's own.
	MaxBytes int64
}

// Apply writes r into h, replacing any contract header h had.
func (r Request) Apply(h http.Header) {
	for k := range h {
		if strings.HasPrefix(k, HeaderPrefix) {
			delete(h, k)
		}
	}
	h.Set(HeaderVersion, strconv.Itoa(Version))
	if r.Profile != "" {
		h.Set(HeaderProfile, string(r.Profile))
	}
	if r.Engine != "" {
		h.Set(HeaderEngine, r.Engine)
	}
	if r.Deadline > 0 {
		ms := max(r.Deadline.Milliseconds(), 1)
		h.Set(HeaderDeadline, strconv.FormatInt(ms, 10))
	}
	if r.MaxBytes > 0 {
		h.Set(HeaderMaxBytes, strconv.FormatInt(r.MaxBytes, 10))
	}
}

// ParseRequest reads the contract headers of h. Absent headers take their
// defaults; a present header must be well-formed, given once.
func ParseRequest(h http.Header) (Request, error) {
	var r Request
	if v, ok, err := single(h, HeaderVersion); err != nil {
		return r, err
	} else if ok && v != strconv.Itoa(Version) {
		return r, fmt.Errorf("%w: version %q", ErrContract, v)
	}
	r.Profile = ProfileAgent
	if v, ok, err := single(h, HeaderProfile); err != nil {
		return r, err
	} else if ok {
		r.Profile = Profile(v)
		if !r.Profile.Valid() {
			return r, fmt.Errorf("%w: profile %q", ErrContract, v)
		}
	}
	v, ok, err := single(h, HeaderEngine)
	switch {
	case err != nil:
		return r, err
	case ok != (r.Profile == ProfileEngine):
		return r, fmt.Errorf("%w: engine header with profile %s", ErrContract, r.Profile)
	case ok && !ValidEngineID(v):
		return r, fmt.Errorf("%w: engine id", ErrContract)
	}
	r.Engine = v
	if n, ok, err := positive(h, HeaderDeadline); err != nil {
		return r, err
	} else if ok {
		r.Deadline = time.Duration(n) * time.Millisecond
	}
	if n, ok, err := positive(h, HeaderMaxBytes); err != nil {
		return r, err
	} else if ok {
		r.MaxBytes = n
	}
	for k := range h {
		switch k {
		case HeaderVersion, HeaderProfile, HeaderEngine, HeaderDeadline, HeaderMaxBytes:
		default:
			if strings.HasPrefix(k, HeaderPrefix) {
				return r, fmt.Errorf("%w: unknown header %s", ErrContract, k)
			}
		}
	}
	return r, nil
}

// ValidEngineID reports whether id is an engine identifier: 1 to 64
// lower-case ASCII letters, digits, '-' or '_', starting with a letter.
func ValidEngineID(id string) bool {
	if id == "" || len(id) > maxEngineID || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func single(h http.Header, key string) (string, bool, error) {
	vs := h.Values(key)
	switch len(vs) {
	case 0:
		return "", false, nil
	case 1:
		return vs[0], true, nil
	}
	return "", false, fmt.Errorf("%w: %s given %d times", ErrContract, key, len(vs))
}

func positive(h http.Header, key string) (int64, bool, error) {
	v, ok, err := single(h, key)
	if err != nil || !ok {
		return 0, false, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || len(v) > 18 || v[0] == '+' {
		return 0, false, fmt.Errorf("%w: %s", ErrContract, key)
	}
	return n, true, nil
}

// Status is the HTTP status of the egress's own answer for r: 403 for a
// policy refusal, 400 for a contract error, 502 for network, 504 for
// timeout.
func Status(r Reason) int {
	switch {
	case r.Policy():
		return http.StatusForbidden
	case r == ReasonNetwork:
		return http.StatusBadGateway
	case r == ReasonTimeout:
		return http.StatusGatewayTimeout
	case r == ReasonTooLarge:
		return http.StatusBadGateway
	}
	return http.StatusBadRequest
}

// Refusal returns the egress's own answer for r: the status of Status,
// the headers (HeaderRefusal among them) and a one-line body with no
// other text.
func Refusal(r Reason) (status int, h http.Header, body string) {
	h = http.Header{}
	h.Set(HeaderVersion, strconv.Itoa(Version))
	h.Set(HeaderRefusal, string(r))
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	return Status(r), h, "rypsok-egress: " + string(r) + "\n"
}

// WriteRefusal answers a request with the egress's own refusal for r.
func WriteRefusal(w http.ResponseWriter, r Reason) {
	status, h, body := Refusal(r)
	for k, v := range h {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// RefusalOf reports whether resp is the egress's own refusal, and its
// reason. An unknown reason reads as ReasonContract.
func RefusalOf(resp *http.Response) (Reason, bool) {
	v := resp.Header.Get(HeaderRefusal)
	if v == "" {
		return "", false
	}
	if r := Reason(v); r.Valid() {
		return r, true
	}
	return ReasonContract, true
}

// EndOf reports how the body of a forwarded resp ended. Call it after
// reading the body to io.EOF: a missing or unknown trailer reads as
// EndNetwork, since only a broken stream lacks it. A status that has no
// body (204, 304) is complete.
func EndOf(resp *http.Response) End {
	if resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified {
		return EndComplete
	}
	if e := End(resp.Trailer.Get(TrailerEnd)); e.Valid() {
		return e
	}
	return EndNetwork
}
