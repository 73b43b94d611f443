package cache

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/sharedstate"
	"github.com/rypsok/rypsok/front/sharedstate/redistest"
	"github.com/rypsok/rypsok/shared/limits"
)

// TestSharedKeepsOnlyTheAnswer: in Redis, an entry is the answer alone,
// under the deployment's prefix and the key's digest, expiring within
// LIM-K2; the query and the caller appear nowhere. An answer over LIM-K4
// is not stored; while Redis is down, the replica's own cache answers.
func TestSharedKeepsOnlyTheAnswer(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	states := make(chan bool, 8)
	store, err := sharedstate.Open(ctx, sharedstate.Options{URL: srv.URL(), Prefix: "dep", OnState: func(up bool) { states <- up }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	<-states
	c := NewShared(store, Options{})
	k := Key{Caller: "caller-name", Engine: "wikipedia", Query: "private query words", Count: 10}
	tests := []struct {
		name    string
		results []engine.Result
		stored  bool
	}{
		{"an answer", results(3), true},
		{"an empty answer", nil, true},
		{"over LIM-K4", results(limits.K4CacheEntryBytes / resultOverhead), false},
	}
	for _, tt := range tests {
		k := k
		k.Region = tt.name
		if got := c.Put(ctx, k, tt.results); got != tt.stored {
			t.Errorf("%s: stored %t, want %t", tt.name, got, tt.stored)
		}
		got, hit := c.Get(ctx, k)
		if hit != tt.stored || hit && len(got) != len(tt.results) {
			t.Errorf("%s: hit %t with %d results", tt.name, hit, len(got))
		}
	}
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer raw.Close()
	keys := raw.Keys(ctx, "*").Val()
	for _, key := range keys {
		v, _ := raw.Dump(ctx, key).Result()
		if strings.Contains(key+v, "private") || strings.Contains(key+v, "caller-name") {
			t.Errorf("key %q holds the query or the caller", key)
		}
		if !strings.HasPrefix(key, "dep:cache:") {
			t.Errorf("key %q: not under the prefix", key)
		}
		if ttl := raw.PTTL(ctx, key).Val(); ttl <= 0 || ttl > limits.K2CacheTTL {
			t.Errorf("key %q: TTL %v", key, ttl)
		}
	}
	if len(keys) != 2+3 { // two entries, their index, sizes and total
		t.Errorf("%d keys, want 5: %q", len(keys), keys)
	}
	srv.Kill()
	k.Region = "while down"
	if !c.Put(ctx, k, results(2)) {
		t.Fatal("not kept while redis is down")
	}
	if <-states {
		t.Fatal("not down")
	}
	if got, hit := c.Get(ctx, k); !hit || len(got) != 2 {
		t.Errorf("while down: hit %t, %d results", hit, len(got))
	}
}
