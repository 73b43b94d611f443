package app

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/search"
	"github.com/rypsok/rypsok/shared/limits"
)

// Searcher runs the search pipeline; *search.Pipeline is one.
type Searcher interface {
	Search(ctx context.Context, req search.Request) (response.Search, *response.Error)
}

// The search pipeline is a Searcher and a Waiter: a pipeline that stopped
// being one would no longer be waited for, so the compiler says so.
var (
	_ Searcher = (*search.Pipeline)(nil)
	_ Waiter   = (*search.Pipeline)(nil)
)

// searchOffer holds what web_search offers under one configuration: the
// values its arguments may take. (Searcher is the pipeline that runs it.)
type searchOffer struct {
	categories []string // categories with an active engine, in response.Categories order
	languages  []string // configured languages; the first is the default
	maxResults int
}

func newSearchOffer(cfg config.Config) *searchOffer {
	s := &searchOffer{languages: cfg.Search.Languages, maxResults: cfg.Search.MaxResults}
	for _, c := range response.Categories() {
		for _, e := range cfg.Engines {
			if e.State == config.EngineActive && slices.Contains(e.Categories, string(c)) {
				s.categories = append(s.categories, string(c))
				break
			}
		}
	}
	return s
}

// Categories lists the categories web_search offers.
func (s *Services) Categories() []string { return s.offer.categories }

// Languages lists the languages web_search offers; the parameter is
// listed only when there are two or more.
func (s *Services) Languages() []string { return s.offer.languages }

// OffersLanguage reports whether web_search takes the language parameter.
func (s *Services) OffersLanguage() bool { return len(s.offer.languages) >= 2 }

// parse validates web_search's arguments before any work (REQ-SEARCH-006).
func (s *searchOffer) parse(a *args) (search.Request, *response.Error) {
	req := search.Request{Category: response.CategoryGeneral, MaxResults: s.maxResults}
	q, ok, err := a.str("query")
	if err != nil {
		return req, err
	}
	if !ok {
		return req, response.Missing("query")
	}
	req.Query = strings.TrimSpace(q)
	if n := utf8.RuneCountInString(req.Query); n < 1 || n > limits.S1QueryMaxChars {
		return req, response.InvalidLength("query", 1, limits.S1QueryMaxChars)
	}
	if c, ok, err := a.choice("category", s.categories); err != nil {
		return req, err
	} else if ok {
		req.Category = response.Category(c)
	}
	if n, ok, err := a.integer("max_results", 1, limits.S2MaxResultsMax); err != nil {
		return req, err
	} else if ok {
		req.MaxResults = int(n)
	}
	if len(s.languages) > 0 {
		req.Language = s.languages[0]
	}
	if len(s.languages) >= 2 {
		if l, ok, err := a.choice("language", s.languages); err != nil {
			return req, err
		} else if ok {
			req.Language = l
		}
	}
	ranges := make([]string, len(response.TimeRanges()))
	for i, t := range response.TimeRanges() {
		ranges[i] = string(t)
	}
	if t, ok, err := a.choice("time_range", ranges); err != nil {
		return req, err
	} else if ok {
		req.TimeRange = response.TimeRange(t)
	}
	return req, a.unknown()
}

// Search runs the search pipeline (docs/design: search pipeline) for a
// validated request. With no pipeline (no engine configured), the answer
// is the outcome table's for N = 0 (docs/design: outcomes).
func (s *Services) Search(ctx context.Context, req search.Request) (response.Search, *response.Error) {
	if s.searcher == nil {
		return response.Search{}, response.Unavailable(response.ReasonNoEngine, -1)
	}
	return s.searcher.Search(ctx, req)
}
