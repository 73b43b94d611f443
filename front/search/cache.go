package search

import (
	"context"

	"github.com/rypsok/rypsok/front/cache"
	"github.com/rypsok/rypsok/front/engine"
)

// cached is one call's view of the cache: nil when the call bypasses it
// (no cache, or a query the privacy check warned about). It lives for
// one call and holds that call's context, so that a shared cache's
// commands end with the call (and within their own LIM-R1).
type cached struct {
	ctx context.Context
	c   cache.Store
	key cache.Key // without the engine
}

// cacheFor returns the call's view of the cache.
func (p *Pipeline) cacheFor(ctx context.Context, caller string, req engine.Request, warned bool) *cached {
	if p.opts.Cache == nil || warned {
		return nil
	}
	return &cached{ctx: ctx, c: p.opts.Cache, key: cache.Key{
		Caller: caller, Query: req.Query, Category: req.Category, Language: req.Language, Region: req.Region,
		SafeSearch: req.SafeSearch, TimeRange: req.TimeRange, Count: req.Count,
	}}
}

// get returns e's cached answer; never for an engine whose provider
// forbids storage.
func (c *cached) get(e *Engine) (_ []engine.Result, hit bool) {
	if c == nil || !e.props.Cacheable {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			hit = false // a failing cache costs speed, never the call
		}
	}()
	k := c.key
	k.Engine = e.ID
	return c.c.Get(c.ctx, k)
}

// put stores e's answer; never for an engine whose provider forbids
// storage.
func (c *cached) put(e *Engine, results []engine.Result) {
	if c == nil || !e.props.Cacheable {
		return
	}
	defer func() { recover() }() // a failing cache costs speed, never the call
	k := c.key
	k.Engine = e.ID
	c.c.Put(c.ctx, k, results)
}
