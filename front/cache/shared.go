package cache

import (
	"context"
	"encoding/hex"
	"encoding/json"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/sharedstate"
)

// sharedMap is the shared store's map of answers: its keys are
// <prefix>:cache:<hex SHA-256 of the Key>.
const sharedMap = "cache"

// Shared is the result cache of several replicas, kept in Redis
// (docs/replicas.md): the same keys (per caller, engine and engine
// request, as SHA-256 digests: no query text is stored), the same bounds
// (LIM-K2 by Redis's own expiry, LIM-K3 entries of LIM-K4 bytes, MaxBytes
// in all; past a bound the oldest entries go first, where one process
// drops the least recently used) and the same admission rules, which
// stay the search pipeline's. A value is the answer as JSON, and only
// that. While the store is down (sharedstate.ErrUnavailable), answers are
// kept in, and read from, the replica's own in-process Cache. Safe for
// concurrent use.
type Shared struct {
	store *sharedstate.Store
	local *Cache
	b     sharedstate.Bounds
}

// NewShared returns the cache of store; o bounds it, and its in-process
// fallback, as New does.
func NewShared(store *sharedstate.Store, o Options) *Shared {
	local := New(o)
	return &Shared{store: store, local: local, b: sharedstate.Bounds{
		TTL: local.o.TTL, MaxEntries: local.o.MaxEntries, MaxValue: local.o.MaxEntryBytes, MaxBytes: local.o.MaxBytes,
	}}
}

// Get returns k's unexpired answer, from Redis or, while it is down, from
// the replica's own cache.
func (s *Shared) Get(ctx context.Context, k Key) ([]engine.Result, bool) {
	v, ok, err := s.store.Get(ctx, sharedMap, name(k), s.b)
	if err != nil {
		return s.local.Get(ctx, k)
	}
	if !ok {
		return nil, false
	}
	var results []engine.Result
	if json.Unmarshal(v, &results) != nil {
		return nil, false // not an answer: a miss
	}
	return results, true
}

// Put stores results as k's answer in Redis or, while it is down, in the
// replica's own cache; false when the answer is larger than LIM-K4 (as
// accounted by Size, or as stored).
func (s *Shared) Put(ctx context.Context, k Key, results []engine.Result) bool {
	if Size(results) > s.b.MaxValue {
		return false
	}
	v, err := json.Marshal(results)
	if err != nil {
		return false
	}
	stored, err := s.store.Put(ctx, sharedMap, name(k), v, s.b)
	if err != nil {
		return s.local.Put(ctx, k, results)
	}
	return stored
}

// name is k's name in the shared map: its digest.
func name(k Key) string {
	d := k.digest()
	return hex.EncodeToString(d[:])
}
