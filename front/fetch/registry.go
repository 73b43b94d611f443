package fetch

import (
	"container/list"
	"sync"

	"github.com/rypsok/rypsok/front/rank"
)

// RegistryCapacity is how many URLs a Registry remembers: the results of
// the last 500 searches at the most results a call may ask (LIM-S2), each
// key at most a URL's length (LIM-F9).
const RegistryCapacity = 10_000

// Registry is the set of URLs rypsok returned in this process (search
// results), which strict mode admits (REQ-SEC-021). URLs are compared by
// their rank.Key, so "https://www.a.com/x/?utm_source=y" and
// "http://a.com/x" are one URL. It is bounded: past its capacity the least
// recently added or looked-up URL is forgotten. Safe for concurrent use.
type Registry struct {
	capacity int

	mu    sync.Mutex
	byKey map[string]*list.Element // of string keys
	lru   *list.List               // most recently used at the front
}

// NewRegistry returns an empty Registry of RegistryCapacity URLs.
func NewRegistry() *Registry { return newRegistry(RegistryCapacity) }

// newRegistry returns an empty Registry of capacity URLs (at least one);
// tests use a small one to see URLs forgotten.
func newRegistry(capacity int) *Registry {
	return &Registry{capacity: max(1, capacity), byKey: make(map[string]*list.Element), lru: list.New()}
}

// Add remembers url. A URL rank.Key refuses (malformed, with userinfo) is
// ignored: strict mode could not admit it anyway.
func (r *Registry) Add(url string) {
	k, err := rank.Key(url)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.byKey[k]; ok {
		r.lru.MoveToFront(e)
		return
	}
	r.byKey[k] = r.lru.PushFront(k)
	for r.lru.Len() > r.capacity {
		last := r.lru.Back()
		r.lru.Remove(last)
		delete(r.byKey, last.Value.(string))
	}
}

// Has reports whether url, compared by its rank.Key, was added and not
// yet forgotten.
func (r *Registry) Has(url string) bool {
	k, err := rank.Key(url)
	if err != nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byKey[k]
	if ok {
		r.lru.MoveToFront(e)
	}
	return ok
}
