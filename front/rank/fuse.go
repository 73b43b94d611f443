package rank

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// rrfK is the k of reciprocal rank fusion: an observation at rank r of an
// engine of weight w adds w / (rrfK + r) to its resource's score.
const rrfK = 60.0

// Observation is one engine's result at one rank.
type Observation[T any] struct {
	// Engine is the engine's name, as in Fuse's preference order.
	Engine string
	// Rank is the 1-based position within the engine's list; a rank below
	// 1 counts as 1.
	Rank int
	// URL is the engine's URL.
	URL string
	// Item is the engine's result, opaque to rank.
	Item T
}

// Merged is one resource after merging.
type Merged[T any] struct {
	// Key is the comparison key of every observation merged here.
	Key string
	// URL is the URL to show: the best observation's URL after
	// StripTracking; but when that URL is http and an https observation
	// was merged, the best https observation's URL after StripTracking.
	URL string
	// Item is the best observation's item. The best observation has the
	// lowest rank; ties go to the engine earlier in the preference order,
	// then to the byte-wise smaller URL.
	Item T
	// Engines lists every engine that found the resource, in preference
	// order, without duplicates.
	Engines []string
	// Score is the sum over Engines of weight / (60 + rank), with each
	// engine's best rank, added up in preference order.
	Score float64
	// BestRank is the best observation's rank.
	BestRank int
}

// Dropped is an observation Fuse could not merge: its URL is longer than
// LIM-F9 characters (response.ReasonURLTooLong) or is not an http or https
// URL Key accepts (response.ReasonURLInvalid).
type Dropped struct {
	Engine string
	Reason response.Reason
}

// Fuse merges the engines' lists into one, ordered (REQ-RANK-004 to
// REQ-RANK-006).
//
// engines is the preference order. An engine observed but missing from it
// comes after every listed engine, those among themselves by name. weights
// maps an engine to its weight; a missing weight, or one that is not a
// finite number above 0 (the configuration allows (0, 10]), is 1.0.
//
// Observations whose URL has the same Key merge; an engine that lists a
// resource more than once counts with its best rank only. The result is
// ordered by Score descending, then BestRank ascending, then the
// preference index of the best observation's engine, then Key, which is
// unique: the order is total. Dropped observations come back one entry
// each, ordered by engine preference, then reason.
//
// The output is a function of the set of observations: identical input
// gives identical output, and so does any permutation of the observations
// within and across the slices of obs, provided no two observations share
// engine, rank and URL while carrying different items.
func Fuse[T any](engines []string, weights map[string]float64, obs [][]Observation[T]) (merged []Merged[T], dropped []Dropped) {
	order := engineOrder(engines, obs)
	groups := make(map[string]*group[T])
	for _, list := range obs {
		for i := range list {
			o := &list[i]
			key, reason := keyOf(o.URL)
			if reason != "" {
				dropped = append(dropped, Dropped{o.Engine, reason})
				continue
			}
			g := groups[key]
			if g == nil {
				g = &group[T]{key: key}
				groups[key] = g
			}
			g.add(o, order)
		}
	}
	slices.SortFunc(dropped, func(a, b Dropped) int {
		return cmp.Or(cmp.Compare(order[a.Engine], order[b.Engine]), cmp.Compare(a.Reason, b.Reason))
	})
	if len(groups) == 0 {
		return nil, dropped
	}
	sorted := make([]*group[T], 0, len(groups))
	for _, g := range groups {
		g.finish(order, weights)
		sorted = append(sorted, g)
	}
	slices.SortFunc(sorted, func(a, b *group[T]) int {
		return cmp.Or(
			cmp.Compare(b.score, a.score),
			cmp.Compare(rankOf(a.best), rankOf(b.best)),
			cmp.Compare(order[a.best.Engine], order[b.best.Engine]),
			strings.Compare(a.key, b.key),
		)
	})
	merged = make([]Merged[T], len(sorted))
	for i, g := range sorted {
		merged[i] = g.merged()
	}
	return merged, dropped
}

// keyOf returns the key of an engine's URL, or the reason it is dropped.
// The key form "//host/..." is a key, not an engine's URL: it is refused.
func keyOf(raw string) (string, response.Reason) {
	if len(raw) > limits.F9URLChars && utf8.RuneCountInString(raw) > limits.F9URLChars {
		return "", response.ReasonURLTooLong
	}
	if !hasPrefixFold(raw, "http:") && !hasPrefixFold(raw, "https:") {
		return "", response.ReasonURLInvalid
	}
	key, err := Key(raw)
	if err != nil {
		return "", response.ReasonURLInvalid
	}
	return key, ""
}

// engineOrder maps every engine to its place: the preference order, then
// the engines it does not list, by name.
func engineOrder[T any](engines []string, obs [][]Observation[T]) map[string]int {
	order := make(map[string]int, len(engines))
	for _, e := range engines {
		if _, ok := order[e]; !ok {
			order[e] = len(order)
		}
	}
	var extra []string
	for _, list := range obs {
		for i := range list {
			e := list[i].Engine
			if _, ok := order[e]; !ok && !slices.Contains(extra, e) {
				extra = append(extra, e)
			}
		}
	}
	slices.Sort(extra)
	for _, e := range extra {
		order[e] = len(order)
	}
	return order
}

func weightOf(weights map[string]float64, engine string) float64 {
	w, ok := weights[engine]
	if !ok || !(w > 0) || math.IsInf(w, 1) {
		return 1
	}
	return w
}

func rankOf[T any](o *Observation[T]) int { return max(o.Rank, 1) }

// better reports whether o is a better observation than p: lower rank,
// then earlier engine, then smaller URL.
func better[T any](o, p *Observation[T], order map[string]int) bool {
	return cmp.Or(
		cmp.Compare(rankOf(o), rankOf(p)),
		cmp.Compare(order[o.Engine], order[p.Engine]),
		strings.Compare(o.URL, p.URL),
	) < 0
}

// engineRank is one engine's best rank within a group.
type engineRank struct {
	engine string
	rank   int
}

// group collects the observations of one key.
type group[T any] struct {
	key       string
	best      *Observation[T]
	bestHTTPS *Observation[T]
	ranks     []engineRank
	score     float64
}

func (g *group[T]) add(o *Observation[T], order map[string]int) {
	if g.best == nil || better(o, g.best, order) {
		g.best = o
	}
	if hasPrefixFold(o.URL, "https:") && (g.bestHTTPS == nil || better(o, g.bestHTTPS, order)) {
		g.bestHTTPS = o
	}
	r := rankOf(o)
	for i := range g.ranks {
		if g.ranks[i].engine == o.Engine {
			g.ranks[i].rank = min(g.ranks[i].rank, r)
			return
		}
	}
	g.ranks = append(g.ranks, engineRank{o.Engine, r})
}

// finish puts the engines in preference order and adds up the score in
// that order, so that float rounding does not depend on input order.
func (g *group[T]) finish(order map[string]int, weights map[string]float64) {
	slices.SortFunc(g.ranks, func(a, b engineRank) int {
		return cmp.Compare(order[a.engine], order[b.engine])
	})
	for _, er := range g.ranks {
		g.score += weightOf(weights, er.engine) / (rrfK + float64(er.rank))
	}
}

func (g *group[T]) merged() Merged[T] {
	shown := g.best
	if !hasPrefixFold(shown.URL, "https:") && g.bestHTTPS != nil {
		shown = g.bestHTTPS
	}
	engines := make([]string, len(g.ranks))
	for i, er := range g.ranks {
		engines[i] = er.engine
	}
	return Merged[T]{
		Key:      g.key,
		URL:      StripTracking(shown.URL),
		Item:     g.best.Item,
		Engines:  engines,
		Score:    g.score,
		BestRank: rankOf(g.best),
	}
}
