package app

import (
	"context"
	"math"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/fetch"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// Fetcher runs the web_fetch pipeline; *fetch.Pipeline is one.
type Fetcher interface {
	Fetch(ctx context.Context, req fetch.Request) (response.Fetch, *response.Error)
}

// The fetch pipeline is a Fetcher and a Closer: a pipeline that stopped
// being one would no longer be closed, so the compiler says so.
var (
	_ Fetcher = (*fetch.Pipeline)(nil)
	_ Closer  = (*fetch.Pipeline)(nil)
)

// parseFetch validates web_fetch's arguments before any work.
func (s *Services) parseFetch(a *args) (fetch.Request, *response.Error) {
	req := fetch.Request{MaxChars: s.MaxCharsDefault()}
	u, ok, err := a.str("url")
	if err != nil {
		return req, err
	}
	if !ok {
		return req, response.Missing("url")
	}
	req.URL = u
	ceiling := s.MaxCharsCeiling()
	if n, ok, err := a.integer("max_chars", config.MinMaxChars, int64(ceiling)); err != nil {
		return req, err
	} else if ok {
		req.MaxChars = int(n)
	}
	if n, ok, err := a.integer("start_char", 0, math.MaxInt32); err != nil {
		return req, err
	} else if ok {
		req.StartChar = int(n)
	}
	return req, a.unknown()
}

// MaxCharsCeiling is web_fetch's max_chars ceiling (LIM-F2 or the
// configured one).
func (s *Services) MaxCharsCeiling() int {
	if c := s.cfg.Fetch.MaxCharsCeiling; c >= config.MinMaxChars {
		return c
	}
	return limits.F2MaxCharsCeiling
}

// MaxCharsDefault is web_fetch's max_chars default (LIM-F1 or the
// configured one).
func (s *Services) MaxCharsDefault() int {
	if d := s.cfg.Fetch.MaxChars; d >= config.MinMaxChars && d <= s.MaxCharsCeiling() {
		return d
	}
	return min(limits.F1MaxCharsDefault, s.MaxCharsCeiling())
}
