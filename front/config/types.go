package config

import (
	"github.com/rypsok/rypsok/front/engine/arxiv"
	"github.com/rypsok/rypsok/front/engine/brave"
	"github.com/rypsok/rypsok/front/engine/gdelt"
	"github.com/rypsok/rypsok/front/engine/hackernews"
	"github.com/rypsok/rypsok/front/engine/marginalia"
	"github.com/rypsok/rypsok/front/engine/stackexchange"
	"github.com/rypsok/rypsok/front/engine/wikipedia"
	"github.com/rypsok/rypsok/front/response"
)

// What configuration knows of an engine type (its provider's base URL,
// its key's variable, its default categories, whether it scrapes) is the
// driver's own descriptor, which config reads from the driver registry
// (front/engine/drivers): a type is described once, by its driver.

// Categories returns the known search categories (response.Categories),
// in the order tools list them.
func Categories() []string {
	return categoryNames(response.Categories())
}

// categoryNames returns the names of cs, in order; nil for nil.
func categoryNames(cs []response.Category) []string {
	if cs == nil {
		return nil
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// defaultEngines are the engines of the zero configuration, in preference
// order; their types supply everything else (the brave type reads
// BRAVE_API_KEY). Every one uses an official interface (docs/design:
// engines and compliance); all but brave are keyless, so that the zero
// configuration fuses several engines in general (wikipedia, marginalia,
// gdelt), news (gdelt, hackernews), science (wikipedia, arxiv) and it
// (stackexchange, hackernews), and every category has an engine that
// honors time_range day, week and month (gdelt in general and news,
// arxiv in science, stackexchange and hackernews in it).
var defaultEngines = []struct{ id, typ string }{
	{"wikipedia", wikipedia.Type},
	{"brave", brave.Type},
	{"stackexchange", stackexchange.Type},
	{"arxiv", arxiv.Type},
	{"marginalia", marginalia.Type},
	{"gdelt", gdelt.Type},
	{"hackernews", hackernews.Type},
}
