package config

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/policy"
)

// maxWeight is the highest rank-fusion weight of an engine.
const maxWeight = 10

// maxKeyFileBytes is the largest api_key_file read.
const maxKeyFileBytes = 64 << 10

// redacted replaces a credential wherever an Engine is printed.
const redacted = "[redacted]"

// EngineState is what an engine can do after loading.
type EngineState string

// The engine states.
const (
	// EngineActive: enabled, and holding a credential if its type needs one.
	EngineActive EngineState = "active"
	// EngineDisabled: the operator switched it off (enabled = false).
	EngineDisabled EngineState = "disabled"
	// EngineNoCredential: its type needs a key and none could be read (the
	// variable unset or blank, the file unreadable or empty).
	EngineNoCredential EngineState = "no_credential"
)

// Engine is one configured engine ([engines.<id>]). Printing it with fmt
// (any verb) shows the credential as "[redacted]", and JSON leaves it out.
type Engine struct {
	// ID is the engine identifier (contract.ValidEngineID).
	ID string
	// Type names its driver, a type of the driver registry
	// (drivers.Lookup).
	Type string
	// Enabled is false when the operator switched the engine off; true by
	// default.
	Enabled bool
	// Categories are the categories the engine serves; the type's by
	// default.
	Categories []string
	// Weight is its rank-fusion weight, in (0, 10]; 1 by default.
	Weight float64
	// RatePerSecond and Burst are the pace of its requests to the provider
	// (REQ-CMP-002): the type's, its provider's smallest plan's, unless
	// the operator's plan allows more; never above what the provider
	// publishes (the type's MaxRatePerSecond and MaxBurst).
	RatePerSecond float64
	Burst         int
	// Endpoint replaces the provider's base URL; nil (the default) means
	// the type's own endpoints (engine.Descriptor.DefaultEndpoints). A
	// type whose endpoint is required has none of its own: its engines
	// are refused without an endpoint.
	Endpoint *policy.Endpoint
	// KeyEnv and KeyFile say where the credential is read: an environment
	// variable or a file. At most one is set; a keyed type setting neither
	// reads its type's KeyEnv.
	KeyEnv, KeyFile string
	// Credential is the key read at load time, trimmed of surrounding
	// white space; "" when none. Never printed or logged.
	Credential string `json:"-"`
	// State is EngineActive, EngineDisabled or EngineNoCredential.
	State EngineState
	// StateReason says, for the operator's log, why a keyed engine has no
	// credential ("" otherwise). It never holds the credential.
	StateReason string
}

// Format prints e as fmt prints a struct, for every verb, with the
// credential redacted.
func (e Engine) Format(f fmt.State, verb rune) {
	type plain Engine // the fields, without this method
	p := plain(e)
	if p.Credential != "" {
		p.Credential = redacted
	}
	switch {
	case verb == 'v' && f.Flag('#'):
		io.WriteString(f, strings.Replace(fmt.Sprintf("%#v", p), "config.plain{", "config.Engine{", 1))
	case verb == 'v' && f.Flag('+'):
		fmt.Fprintf(f, "%+v", p)
	default:
		fmt.Fprintf(f, "%v", p)
	}
}

// String returns e as %v prints it, the credential redacted.
func (e Engine) String() string { return fmt.Sprint(e) }

// engines builds the engines in file order; a file without engines gets
// defaultEngines.
func (p *problems) engines(fs map[string]engineFile, order []string, env func(string) string) []Engine {
	if len(fs) == 0 {
		fs, order = map[string]engineFile{}, nil
		for _, d := range defaultEngines {
			fs[d.id] = engineFile{Type: d.typ}
			order = append(order, d.id)
		}
	}
	var out []Engine
	for _, id := range orderedIDs(fs, order) {
		out = append(out, p.engine(id, fs[id], env))
	}
	return out
}

// orderedIDs returns the ids of fs in order, then any id order misses,
// sorted.
func orderedIDs(fs map[string]engineFile, order []string) []string {
	var ids, rest []string
	for _, id := range order {
		if _, ok := fs[id]; ok {
			ids = append(ids, id)
		}
	}
	for id := range fs {
		if !slices.Contains(ids, id) {
			rest = append(rest, id)
		}
	}
	sort.Strings(rest)
	return append(ids, rest...)
}

// engine builds the engine id from its table.
func (p *problems) engine(id string, f engineFile, env func(string) string) Engine {
	field := "engines." + id
	if !contract.ValidEngineID(id) {
		p.add(field, "an engine id is 1 to 64 lower-case ASCII letters, digits, '-' or '_', starting with a letter")
	}
	t := p.engineType(field, f.Type)
	e := Engine{ID: id, Type: f.Type, Enabled: defaultEngineEnabled, Weight: defaultEngineWeight}
	if f.Enabled != nil {
		e.Enabled = *f.Enabled
	}
	if f.Weight != nil {
		e.Weight = *f.Weight
	}
	if !(e.Weight > 0 && e.Weight <= maxWeight) {
		p.add(field+".weight", "want more than 0 and at most %d, got %v", maxWeight, e.Weight)
	}
	e.RatePerSecond, e.Burst = p.pace(field, f, t)
	e.Categories = p.categories(field, f.Categories, t)
	e.KeyEnv, e.KeyFile = p.keySource(field, f, t)
	switch {
	case f.Endpoint != "":
		e.Endpoint = p.endpoint(field+".endpoint", f.Endpoint)
	case t.Type != "" && t.EndpointRequired(): // an unknown type has its own problem
		p.add(field+".endpoint", "required for type %s: the URL of the operator's own instance, such as \"https://searx.example.org\"", t.Type)
	}
	e.State, e.Credential, e.StateReason = state(e, t, env)
	return e
}

// engineType returns the registry's descriptor of the type name, or the
// zero Descriptor with a problem.
func (p *problems) engineType(field, name string) engine.Descriptor {
	t, ok := drivers.Lookup(name)
	switch {
	case name == "":
		p.add(field+".type", "required; known types: %s", strings.Join(drivers.Types(), ", "))
	case !ok:
		p.add(field+".type", "unknown engine type %q; known types: %s", name, strings.Join(drivers.Types(), ", "))
	}
	return t
}

// pace returns the engine's rate and burst: the file's, within what the
// type's provider publishes, else the type's own. A type that is not
// known has its own problem.
func (p *problems) pace(field string, f engineFile, t engine.Descriptor) (perSecond float64, burst int) {
	props := t.Properties
	perSecond, burst = props.RatePerSecond, props.Burst
	if f.RatePerSecond != nil {
		perSecond = *f.RatePerSecond
		if t.Type != "" && !(perSecond > 0 && perSecond <= props.MaxRatePerSecond) {
			p.add(field+".rate_per_second", "want more than 0 and at most %v, the most %s publishes for any plan; got %v", props.MaxRatePerSecond, t.Type, perSecond)
		}
	}
	if f.Burst != nil {
		burst = *f.Burst
		if t.Type != "" && !(burst >= 1 && burst <= props.MaxBurst) {
			p.add(field+".burst", "want 1 to %d, the most %s publishes for any plan; got %d", props.MaxBurst, t.Type, burst)
		}
	}
	return perSecond, burst
}

// categories returns the engine's categories: the type's when the file
// sets none.
func (p *problems) categories(field string, cs []string, t engine.Descriptor) []string {
	if cs == nil {
		return categoryNames(t.Categories)
	}
	if len(cs) == 0 {
		p.add(field+".categories", "want at least one category")
	}
	known := Categories()
	for i, c := range cs {
		f := fmt.Sprintf("%s.categories[%d]", field, i)
		switch {
		case !slices.Contains(known, c):
			p.add(f, "unknown category %q; known categories: %s", c, strings.Join(known, ", "))
		case slices.Index(cs, c) < i:
			p.add(f, "%q is listed twice", c)
		}
	}
	return slices.Clone(cs)
}

// keySource checks api_key_env and api_key_file and returns them; a keyed
// type setting neither gets its type's KeyEnv. A malformed variable name is
// not quoted back: it may be a key pasted in the wrong place.
func (p *problems) keySource(field string, f engineFile, t engine.Descriptor) (keyEnv, keyFile string) {
	set := f.APIKeyEnv != "" || f.APIKeyFile != ""
	switch {
	case f.APIKeyEnv != "" && f.APIKeyFile != "":
		p.add(field+".api_key_file", "set api_key_env or api_key_file, not both")
	case set && t.Type != "" && !t.Keyed():
		p.add(field, "type %s takes no key: remove api_key_env and api_key_file", t.Type)
	case f.APIKeyEnv != "" && !isEnvName(f.APIKeyEnv):
		p.add(field+".api_key_env", "want the name of an environment variable ([A-Z_][A-Z0-9_]*), not the key itself")
	case !set && t.Keyed():
		return t.KeyEnv, ""
	}
	return f.APIKeyEnv, f.APIKeyFile
}

// endpoint parses an engine endpoint. The endpoint is reachable on
// whatever port and at whatever address it names, and by its engine
// only: the egress's engine profile admits it on its own, so it needs no
// [egress] allow rule, and none is derived from it. Allow rules admit
// agent traffic (web_fetch, robots.txt); one written for an endpoint
// would open that host and port to web_fetch as well. User info and
// queries are refused without quoting the endpoint, as they may hold a
// credential.
func (p *problems) endpoint(field, raw string) *policy.Endpoint {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		p.add(field, "holds user info: "+msgInlineSecret)
		return nil
	}
	if strings.ContainsAny(raw, "?#") {
		p.add(field, "a query or fragment is refused (a key goes in api_key_env or api_key_file)")
		return nil
	}
	ep, err := policy.ParseEndpoint(raw)
	if err != nil {
		p.add(field, "%v", err)
		return nil
	}
	return &ep
}

// state decides an engine's state, reading the credential of an enabled
// engine of a keyed type, and only then.
func state(e Engine, t engine.Descriptor, env func(string) string) (s EngineState, cred, reason string) {
	switch {
	case !e.Enabled:
		return EngineDisabled, "", ""
	case !t.Keyed():
		return EngineActive, "", ""
	}
	cred, reason = readCredential(e.KeyEnv, e.KeyFile, env)
	if reason != "" {
		return EngineNoCredential, "", reason
	}
	return EngineActive, cred, ""
}

// readCredential reads a key from the file, else the variable, trimmed of
// surrounding white space; reason says why there is none.
func readCredential(keyEnv, keyFile string, env func(string) string) (cred, reason string) {
	switch {
	case keyFile != "":
		cred, reason = readKeyFile(keyFile)
	case keyEnv != "":
		cred = strings.TrimSpace(getenv(env, keyEnv))
		if cred == "" {
			reason = "environment variable " + keyEnv + " is unset or empty"
		}
	default:
		reason = "neither api_key_env nor api_key_file is set"
	}
	if reason == "" && strings.ContainsFunc(cred, isControl) {
		cred, reason = "", "the key holds a control character"
	}
	return cred, reason
}

// readKeyFile reads a key file of at most maxKeyFileBytes.
func readKeyFile(path string) (cred, reason string) {
	data, err := readSmallFile(path, maxKeyFileBytes)
	if err != nil {
		return "", fmt.Sprintf("api_key_file cannot be read: %v", err)
	}
	if cred = strings.TrimSpace(string(data)); cred == "" {
		return "", "api_key_file " + path + " is empty"
	}
	return cred, ""
}

// readSmallFile reads a regular file of at most limit bytes, so that a
// device or a pipe named by mistake neither blocks nor exhausts memory.
func readSmallFile(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	switch {
	case err != nil:
		return nil, err
	case int64(len(data)) > limit:
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// EndpointURL is the engine's configured endpoint as a URL, "" when it has
// none (Endpoint nil).
func (e Engine) EndpointURL() string {
	if e.Endpoint == nil {
		return ""
	}
	return e.Endpoint.String()
}
