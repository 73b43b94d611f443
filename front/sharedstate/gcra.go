package sharedstate

import (
	"context"
	"math"
	"time"

	"github.com/redis/go-redis/v9"
)

// gcra reserves one slot of a bucket with the generic cell rate algorithm,
// atomically (one script), on Redis's clock so that replicas with skewed
// clocks still share one pace. The bucket holds its theoretical arrival
// time (TAT) in microseconds, expiring once it is in the past.
//
// KEYS[1] the bucket; ARGV[1] the emission interval (µs, 1/rate); ARGV[2]
// the burst; ARGV[3] the longest wait the caller accepts (µs). It returns
// {1, wait} for a slot taken, usable after wait µs (0: now), or {0, wait}
// for no slot before the caller's limit (nothing taken; wait is when the
// next would be).
var gcra = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat + interval - burst * interval - now
if wait < 0 then wait = 0 end
if wait > tonumber(ARGV[3]) then return {0, wait} end
tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000) + 1)
return {1, wait}
`)

// Reservation is the answer to Reserve: a slot taken (OK), usable after
// Wait (0: now); or none before the caller's limit (!OK), the next being
// Wait away.
type Reservation struct {
	OK   bool
	Wait time.Duration
}

// Reserve takes one slot of bucket, paced at rate per second with burst,
// if it is usable within maxWait; it is the shared form of
// rate.Limiter.ReserveN and its semantics are the same: burst slots at
// once from an idle bucket, then one every 1/rate, for all the replicas
// together. The caller waits Wait itself (the slot is its own). A refused
// reservation takes nothing. While the store is down it returns
// ErrUnavailable at once.
func (s *Store) Reserve(ctx context.Context, bucket string, rate float64, burst int, maxWait time.Duration) (Reservation, error) {
	if rate <= 0 || burst < 1 {
		return Reservation{OK: true}, nil // no pacing
	}
	interval := int64(math.Ceil(1e6 / rate))
	var got []int64
	err := s.do(ctx, func(ctx context.Context) error {
		var err error
		got, err = gcra.Run(ctx, s.client, []string{s.key("gcra", bucket)}, interval, burst, maxWait.Microseconds()).Int64Slice()
		return err
	})
	if err != nil {
		return Reservation{}, err
	}
	if len(got) != 2 {
		return Reservation{}, ErrUnavailable
	}
	return Reservation{OK: got[0] == 1, Wait: time.Duration(got[1]) * time.Microsecond}, nil
}
