// Package cache is the search result cache (docs/design: result cache;
// REQ-CACHE-001..007):
// one entry per engine answer, keyed by the caller, the engine and the
// engine request, living LIM-K2 (cache.ttl_s), at most LIM-K3 entries of
// at most LIM-K4 bytes each, and at most MaxBytes in all. The key is kept
// only as a SHA-256 digest, so no query text is held as such; entries are
// dropped once expired, oldest first, on every use.
package cache

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"sync"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/shared/limits"
)

// MaxBytes bounds the memory of all entries together (accounted as the
// bytes of their strings plus a fixed cost per result): LIM-K3 entries of
// LIM-K4 bytes would be 250 MiB, far beyond the front's memory budget.
const MaxBytes = 32 << 20

// resultOverhead is the accounted cost of one result beyond its strings.
const resultOverhead = 96

// Key is one engine request of one caller: the query after the privacy
// check and every parameter the engine is asked with.
type Key struct {
	Caller, Engine, Query, Category, Language, Region, SafeSearch, TimeRange string
	Count                                                                    int
}

// digest is the key's SHA-256 over its length-prefixed fields, so that
// no two keys share a digest by concatenation.
func (k Key) digest() [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, f := range []string{k.Caller, k.Engine, k.Query, k.Category, k.Language, k.Region, k.SafeSearch, k.TimeRange} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	binary.BigEndian.PutUint64(n[:], uint64(k.Count))
	h.Write(n[:])
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// Options configure a cache; zero values take the limits.
type Options struct {
	TTL           time.Duration // LIM-K2
	MaxEntries    int           // LIM-K3
	MaxEntryBytes int           // LIM-K4
	MaxBytes      int           // MaxBytes
	Now           func() time.Time
}

// Cache is safe for concurrent use.
type Cache struct {
	o Options

	mu      sync.Mutex
	entries map[[sha256.Size]byte]*entry
	lru     *list.List // most recently used first
	byAge   *list.List // oldest first: with one TTL, the order of expiry
	bytes   int
}

type entry struct {
	digest  [sha256.Size]byte
	results []engine.Result
	size    int
	expires time.Time
	lru     *list.Element
	age     *list.Element
}

// New returns an empty cache.
func New(o Options) *Cache {
	if o.TTL <= 0 {
		o.TTL = limits.K2CacheTTL
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = limits.K3CacheEntries
	}
	if o.MaxEntryBytes <= 0 {
		o.MaxEntryBytes = limits.K4CacheEntryBytes
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = MaxBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Cache{o: o, entries: map[[sha256.Size]byte]*entry{}, lru: list.New(), byAge: list.New()}
}

// Store is where the search pipeline keeps engine answers: the
// in-process Cache, or Shared (several replicas, through Redis).
type Store interface {
	// Get returns a copy of k's unexpired answer.
	Get(ctx context.Context, k Key) ([]engine.Result, bool)
	// Put stores a copy of results as k's answer; false when it is not
	// stored (larger than LIM-K4).
	Put(ctx context.Context, k Key, results []engine.Result) bool
}

// Get returns a copy of k's unexpired answer.
func (c *Cache) Get(_ context.Context, k Key) ([]engine.Result, bool) {
	d := k.digest()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expire()
	e, ok := c.entries[d]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e.lru)
	return slices.Clone(e.results), true
}

// Put stores a copy of results as k's answer, replacing any earlier one;
// it reports false when the answer is larger than LIM-K4 (not stored).
func (c *Cache) Put(_ context.Context, k Key, results []engine.Result) bool {
	size := Size(results)
	if size > c.o.MaxEntryBytes {
		return false
	}
	d := k.digest()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expire()
	if old, ok := c.entries[d]; ok {
		c.remove(old)
	}
	for len(c.entries) >= c.o.MaxEntries || c.bytes+size > c.o.MaxBytes {
		c.remove(c.lru.Back().Value.(*entry))
	}
	e := &entry{digest: d, results: slices.Clone(results), size: size, expires: c.o.Now().Add(c.o.TTL)}
	e.lru = c.lru.PushFront(e)
	e.age = c.byAge.PushBack(e)
	c.entries[d] = e
	c.bytes += size
	return true
}

// Len and Bytes report the entries held and their accounted bytes.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

func (c *Cache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// expire drops the expired entries, oldest first.
func (c *Cache) expire() {
	now := c.o.Now()
	for f := c.byAge.Front(); f != nil; f = c.byAge.Front() {
		e := f.Value.(*entry)
		if now.Before(e.expires) {
			return
		}
		c.remove(e)
	}
}

func (c *Cache) remove(e *entry) {
	c.lru.Remove(e.lru)
	c.byAge.Remove(e.age)
	delete(c.entries, e.digest)
	c.bytes -= e.size
}

// Size is the accounted size of an answer.
func Size(results []engine.Result) int {
	n := 0
	for _, r := range results {
		n += resultOverhead + len(r.Title) + len(r.URL) + len(r.Snippet) + len(r.Date)
	}
	return n
}
