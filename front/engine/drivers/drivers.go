// Package drivers is the registry of engine drivers: the engine type an
// engine's configuration names (engines.<id>.type) selects its Factory.
// A driver is added by one row of Factories, beside its row of config's
// type table.
package drivers

import (
	"errors"
	"fmt"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/arxiv"
	"github.com/rypsok/rypsok/front/engine/brave"
	"github.com/rypsok/rypsok/front/engine/duckduckgo"
	"github.com/rypsok/rypsok/front/engine/marginalia"
	"github.com/rypsok/rypsok/front/engine/searxng"
	"github.com/rypsok/rypsok/front/engine/stackexchange"
	"github.com/rypsok/rypsok/front/engine/wikipedia"
)

// ErrUnknownType is wrapped by New for a type without a driver.
var ErrUnknownType = errors.New("drivers: unknown engine type")

// Factories holds the factory of each engine type, by type name.
var Factories = map[string]engine.Factory{
	wikipedia.Type:     wikipedia.New,
	brave.Type:         brave.New,
	searxng.Type:       searxng.New,
	stackexchange.Type: stackexchange.New,
	arxiv.Type:         arxiv.New,
	marginalia.Type:    marginalia.New,
	duckduckgo.Type:    duckduckgo.New,
}

// New builds the driver of type typ from cfg; an unknown type wraps
// ErrUnknownType, and the factory's own error is returned as it is.
func New(typ string, cfg engine.Config) (engine.Driver, error) {
	f, ok := Factories[typ]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownType, typ)
	}
	return f(cfg)
}
