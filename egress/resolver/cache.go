package resolver

import (
	"container/list"
	"net/netip"
	"sync"
	"time"
)

// key identifies a cached answer.
type key struct {
	name  string // normalized
	qtype uint16
}

// entry is a cached answer. Its slices are shared and never modified.
type entry struct {
	names  []string
	addrs  []netip.Addr
	expiry time.Time
}

// cache is a least-recently-used map of answers, bounded in entries.
type cache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *item, most recently used first
	items map[key]*list.Element
}

type item struct {
	key   key
	entry entry
}

func newCache(size int) *cache {
	return &cache{size: size, order: list.New(), items: make(map[key]*list.Element)}
}

// get returns the entry of k if it has not expired at now; an expired
// entry is dropped.
func (c *cache) get(k key, now time.Time) (entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return entry{}, false
	}
	it := el.Value.(*item)
	if !now.Before(it.entry.expiry) {
		c.order.Remove(el)
		delete(c.items, k)
		return entry{}, false
	}
	c.order.MoveToFront(el)
	return it.entry, true
}

// put stores e under k, evicting the least recently used entry when the
// cache is full.
func (c *cache) put(k key, e entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		el.Value.(*item).entry = e
		c.order.MoveToFront(el)
		return
	}
	c.items[k] = c.order.PushFront(&item{key: k, entry: e})
	if c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*item).key)
	}
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
