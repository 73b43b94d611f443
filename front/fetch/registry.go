package fetch

import (
	"container/list"
	"sync"

	"github.com/rypsok/rypsok/front/rank"
)

// DefaultRegistrySize is how many URLs a Registry remembers when New is
// given no size.
const DefaultRegistrySize = 10_000

// Registry is the set of URLs rypsok returned in this process (search
// results), which strict mode admits (REQ-SEC-021). URLs are compared by
// their rank.Key, so "https://www.a.com/x/?utm_source=y" and
// "http://a.com/x" are one URL. It is bounded: past its size the least
// recently added or looked-up URL is forgotten. Safe for concurrent use.
type Registry struct {
	size int

	mu    sync.Mutex
	byKey map[string]*list.Element // of string keys
	lru   *list.List               // most recently used at the front
}

// NewRegistry returns an empty Registry of at most size URLs; size below 1
// means DefaultRegistrySize.
func NewRegistry(size int) *Registry {
	if size < 1 {
		size = DefaultRegistrySize
	}
	return &Registry{size: size, byKey: make(map[string]*list.Element), lru: list.New()}
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
	for r.lru.Len() > r.size {
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
