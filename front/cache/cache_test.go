package cache

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/shared/limits"
)

func results(n int) []engine.Result {
	var rs []engine.Result
	for i := range n {
		rs = append(rs, engine.Result{Title: fmt.Sprintf("t%d", i), URL: fmt.Sprintf("https://example.org/%d", i), Snippet: "s"})
	}
	return rs
}

func TestEveryFieldOfTheKeyCounts(t *testing.T) {
	c := New(Options{})
	base := Key{Caller: "a", Engine: "wikipedia", Query: "q", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10}
	c.Put(t.Context(), base, results(1))
	if _, ok := c.Get(t.Context(), base); !ok {
		t.Fatal("no hit for the same key")
	}
	for name, k := range map[string]Key{
		"caller":                   {Caller: "b", Engine: "wikipedia", Query: "q", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10},
		"engine":                   {Caller: "a", Engine: "brave", Query: "q", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10},
		"query":                    {Caller: "a", Engine: "wikipedia", Query: "Q", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10},
		"category":                 {Caller: "a", Engine: "wikipedia", Query: "q", Category: "news", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10},
		"language":                 {Caller: "a", Engine: "wikipedia", Query: "q", Category: "general", Language: "ja", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10},
		"region":                   {Caller: "a", Engine: "wikipedia", Query: "q", Category: "general", Language: "en", Region: "GB", SafeSearch: "moderate", TimeRange: "week", Count: 10},
		"safe search":              {Caller: "a", Engine: "wikipedia", Query: "q", Category: "general", Language: "en", Region: "US", SafeSearch: "strict", TimeRange: "week", Count: 10},
		"time range":               {Caller: "a", Engine: "wikipedia", Query: "q", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "day", Count: 10},
		"count":                    {Caller: "a", Engine: "wikipedia", Query: "q", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 5},
		"a shifted field boundary": {Caller: "a", Engine: "wikipediaq", Query: "", Category: "general", Language: "en", Region: "US", SafeSearch: "moderate", TimeRange: "week", Count: 10},
	} {
		if _, ok := c.Get(t.Context(), k); ok {
			t.Errorf("another %s hits", name)
		}
	}
}

func TestEntriesExpire(t *testing.T) {
	now := time.Unix(1000, 0)
	c := New(Options{TTL: time.Minute, Now: func() time.Time { return now }})
	c.Put(t.Context(), Key{Query: "old"}, results(1))
	now = now.Add(30 * time.Second)
	c.Put(t.Context(), Key{Query: "new"}, results(1))
	now = now.Add(30 * time.Second) // "old" is a minute old
	if _, ok := c.Get(t.Context(), Key{Query: "old"}); ok {
		t.Error("an expired entry hits")
	}
	if _, ok := c.Get(t.Context(), Key{Query: "new"}); !ok {
		t.Error("a live entry misses")
	}
	if c.Len() != 1 {
		t.Errorf("%d entries held, want the expired one dropped", c.Len())
	}
}

func TestBounds(t *testing.T) {
	c := New(Options{MaxEntries: 3})
	for i := range 5 {
		c.Put(t.Context(), Key{Query: fmt.Sprint(i)}, results(1))
		if i == 2 {
			c.Get(t.Context(), Key{Query: "0"}) // 0 is used again: 1, then 2, are the least recently used
		}
	}
	if c.Len() != 3 {
		t.Fatalf("%d entries, want 3", c.Len())
	}
	for q, want := range map[string]bool{"0": true, "1": false, "2": false, "3": true, "4": true} {
		if _, ok := c.Get(t.Context(), Key{Query: q}); ok != want {
			t.Errorf("%s held %v, want %v", q, ok, want)
		}
	}
	big := []engine.Result{{Snippet: strings.Repeat("x", limits.K4CacheEntryBytes)}}
	if c.Put(t.Context(), Key{Query: "big"}, big) {
		t.Error("an entry over LIM-K4 was stored")
	}
	small := New(Options{MaxBytes: 3 * Size(results(10))})
	for i := range 10 {
		small.Put(t.Context(), Key{Query: fmt.Sprint(i)}, results(10))
	}
	if small.Len() != 3 || small.Bytes() > 3*Size(results(10)) {
		t.Errorf("%d entries of %d bytes, want 3 within the byte bound", small.Len(), small.Bytes())
	}
}

func TestAnswersAreCopies(t *testing.T) {
	c := New(Options{})
	rs := results(2)
	c.Put(t.Context(), Key{Query: "q"}, rs)
	rs[0].Title = "changed by the caller"
	got, _ := c.Get(t.Context(), Key{Query: "q"})
	got[1].Title = "changed by a reader"
	again, _ := c.Get(t.Context(), Key{Query: "q"})
	if again[0].Title != "t0" || again[1].Title != "t1" {
		t.Errorf("the entry changed: %+v", again)
	}
}

func TestReplacingAnEntryKeepsTheAccountsRight(t *testing.T) {
	c := New(Options{})
	for range 10 {
		c.Put(t.Context(), Key{Query: "q"}, results(3))
	}
	if c.Len() != 1 || c.Bytes() != Size(results(3)) {
		t.Errorf("%d entries, %d bytes", c.Len(), c.Bytes())
	}
}
