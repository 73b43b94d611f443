package sharedstate

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Bounds bound a map: how long a value lives, how many values, how large
// one value and all of them together may be.
type Bounds struct {
	TTL        time.Duration
	MaxEntries int
	MaxValue   int
	MaxBytes   int
}

// put stores a value in a bounded map, atomically. The map is its values
// (each a key of its own with a TTL, so Redis drops it when it expires),
// an index (a sorted set of the values' keys by expiry time) and their
// sizes (a hash, and their total): expired entries leave the index first,
// then the oldest go until the new value fits both bounds. The map's own
// keys expire one TTL after the last put, so an idle deployment leaves
// nothing behind.
//
// KEYS[1] the value's key; KEYS[2] the index; KEYS[3] the sizes; KEYS[4]
// the total. ARGV[1] the value; ARGV[2] the TTL (ms); ARGV[3] the most
// entries; ARGV[4] the most bytes.
var put = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local size = string.len(ARGV[1])
local function drop(k)
  redis.call('DEL', k)
  redis.call('ZREM', KEYS[2], k)
  local n = tonumber(redis.call('HGET', KEYS[3], k) or '0')
  redis.call('HDEL', KEYS[3], k)
  redis.call('DECRBY', KEYS[4], n)
end
for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do drop(k) end
if redis.call('ZSCORE', KEYS[2], KEYS[1]) then drop(KEYS[1]) end
while redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) or tonumber(redis.call('GET', KEYS[4]) or '0') + size > tonumber(ARGV[4]) do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #oldest == 0 then break end
  drop(oldest[1])
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
redis.call('INCRBY', KEYS[4], size)
for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], ttl) end
return 1
`)

// Get returns the value of name in map m, false when there is none (or
// it is larger than b.MaxValue: never written by Put). While the store is
// down it returns ErrUnavailable at once.
func (s *Store) Get(ctx context.Context, m, name string, b Bounds) ([]byte, bool, error) {
	var v []byte
	err := s.do(ctx, func(ctx context.Context) error {
		var err error
		v, err = s.client.Get(ctx, s.key(m, name)).Bytes()
		return err
	})
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return v, len(v) <= b.MaxValue, nil
}

// Put stores value as name's in map m within b; false when the value is
// larger than b.MaxValue (not stored). While the store is down it returns
// ErrUnavailable at once.
func (s *Store) Put(ctx context.Context, m, name string, value []byte, b Bounds) (bool, error) {
	if len(value) > b.MaxValue {
		return false, nil
	}
	keys := []string{s.key(m, name), s.key(m, "index"), s.key(m, "sizes"), s.key(m, "bytes")}
	err := s.do(ctx, func(ctx context.Context) error {
		return put.Run(ctx, s.client, keys, value, b.TTL.Milliseconds(), b.MaxEntries, b.MaxBytes).Err()
	})
	return err == nil, err
}
