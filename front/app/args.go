package app

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"

	"github.com/rypsok/rypsok/front/response"
)

// args are a tool call's arguments: a flat JSON object whose members are
// read once each; anything left unread is an unknown parameter.
type args struct {
	m    map[string]json.RawMessage
	read map[string]bool
}

// parseArgs reads raw (empty or null means no arguments).
func parseArgs(raw json.RawMessage) (*args, *response.Error) {
	a := &args{m: map[string]json.RawMessage{}, read: map[string]bool{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return a, nil
	}
	if raw[0] != '{' || json.Unmarshal(raw, &a.m) != nil {
		return nil, response.NotAnObject()
	}
	return a, nil
}

// unknown returns the error for the first parameter, in name order, that
// no getter read.
func (a *args) unknown() *response.Error {
	var names []string
	for k := range a.m {
		if !a.read[k] {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return response.Unknown(names[0])
}

// get returns the raw value of name, and whether it was given (a JSON null
// counts as absent).
func (a *args) get(name string) (json.RawMessage, bool) {
	a.read[name] = true
	v, ok := a.m[name]
	if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, false
	}
	return v, true
}

// str reads a string parameter.
func (a *args) str(name string) (string, bool, *response.Error) {
	v, ok := a.get(name)
	if !ok {
		return "", false, nil
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false, response.InvalidType(name, "a string")
	}
	return s, true, nil
}

// integer reads an integer parameter in [lo, hi]; a number with a
// fraction, or outside the range, is refused with the range.
func (a *args) integer(name string, lo, hi int64) (int64, bool, *response.Error) {
	v, ok := a.get(name)
	if !ok {
		return 0, false, nil
	}
	var f float64
	if json.Unmarshal(v, &f) != nil {
		return 0, false, response.InvalidType(name, "an integer")
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, false, response.InvalidRange(name, lo, hi)
	}
	return int64(f), true, nil
}

// choice reads a string parameter that must be one of allowed.
func (a *args) choice(name string, allowed []string) (string, bool, *response.Error) {
	s, ok, err := a.str(name)
	if err != nil || !ok {
		return "", false, err
	}
	if !slices.Contains(allowed, s) {
		return "", false, response.InvalidChoice(name, allowed)
	}
	return s, true, nil
}
