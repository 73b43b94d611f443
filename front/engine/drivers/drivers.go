// Package drivers is the registry of engine drivers: each driver
// package's Descriptor, by the engine type an engine's configuration
// names (engines.<id>.type). The configuration consults it to check and
// complete an engine's table (Lookup, Types), and the command line builds
// the drivers with it (New). Adding an engine type is one driver package
// and one line of registry.
package drivers

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/arxiv"
	"github.com/rypsok/rypsok/front/engine/brave"
	"github.com/rypsok/rypsok/front/engine/duckduckgo"
	"github.com/rypsok/rypsok/front/engine/gdelt"
	"github.com/rypsok/rypsok/front/engine/hackernews"
	"github.com/rypsok/rypsok/front/engine/marginalia"
	"github.com/rypsok/rypsok/front/engine/searxng"
	"github.com/rypsok/rypsok/front/engine/stackexchange"
	"github.com/rypsok/rypsok/front/engine/wikipedia"
)

// ErrUnknownType is wrapped by New for a type without a driver.
var ErrUnknownType = errors.New("drivers: unknown engine type")

// registry lists the descriptor of every engine type, one line a type.
var registry = []func() engine.Descriptor{
	wikipedia.Descriptor,
	brave.Descriptor,
	searxng.Descriptor,
	stackexchange.Descriptor,
	arxiv.Descriptor,
	marginalia.Descriptor,
	duckduckgo.Descriptor,
	gdelt.Descriptor,
	hackernews.Descriptor,
}

// Lookup returns the descriptor of the engine type typ, the caller's own
// copy; ok is false for an unknown type.
func Lookup(typ string) (d engine.Descriptor, ok bool) {
	for _, describe := range registry {
		if d = describe(); d.Type == typ {
			d.Properties.TimeRanges = slices.Clone(d.Properties.TimeRanges)
			return d, true
		}
	}
	return engine.Descriptor{}, false
}

// Types returns the known engine types, sorted.
func Types() []string {
	types := make([]string, len(registry))
	for i, describe := range registry {
		types[i] = describe().Type
	}
	slices.Sort(types)
	return types
}

// New builds the driver of type typ from cfg; an unknown type wraps
// ErrUnknownType, and the driver's own error is returned as it is.
func New(typ string, cfg engine.Config) (engine.Driver, error) {
	d, ok := Lookup(typ)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownType, typ)
	}
	return d.New(cfg)
}
