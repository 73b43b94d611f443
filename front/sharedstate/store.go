// Package sharedstate is the state several replicas of rypsok share
// ([shared_state], docs/replicas.md; REQ-SHARE-001..005): a connection to
// Redis or Valkey, its health, and the two atomic primitives built on it,
// a GCRA reservation (Reserve: provider pacing and per-caller LIM-C6) and
// a bounded map with expiry (Get, Put: the result cache). It knows
// nothing of what the callers keep in it.
//
// Redis is a dependency that fails. Every command has its own deadline
// (LIM-R1, far inside any call's), retries nothing, and a failure marks
// the store down: until a background probe (every LIM-R2) finds Redis
// again, every method returns ErrUnavailable at once, without touching
// the network, and the caller uses its in-process state. A call never
// waits on a dead Redis longer than one LIM-R1, and only the first one
// to find it dead does.
package sharedstate

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/limits"
)

// ErrUnavailable is returned while the store is down (or after it was
// closed): the caller falls back to its in-process state. It is a
// variable because a sentinel error is compared by identity; nothing
// assigns it.
var ErrUnavailable = errors.New("sharedstate: redis unavailable")

// Options configure a store.
type Options struct {
	// URL is [shared_state] url: redis://[user[:password]@]host:port[/db]
	// or rediss:// for TLS. It is never logged.
	URL string
	// Password, if not empty, is the password read from
	// [shared_state] password_env; it takes precedence over the URL's.
	Password string
	// Prefix starts every key ([shared_state] prefix), so that several
	// deployments may share one Redis.
	Prefix string
	// Timeout is each command's deadline; zero means LIM-R1.
	Timeout time.Duration
	// Probe is the interval of the probe that finds a down store again;
	// zero means LIM-R2.
	Probe time.Duration
	// Log receives one line per transition (up, down); never the URL or
	// the password.
	Log zerolog.Logger
	// OnState, if not nil, is told every transition (the metrics gauge),
	// and the state found by Open.
	OnState func(up bool)
}

// Store is a connection to Redis with its health; safe for concurrent
// use.
type Store struct {
	client  *redis.Client
	prefix  string
	timeout time.Duration
	log     zerolog.Logger
	onState func(bool)

	up      atomic.Bool
	mu      sync.Mutex // serializes transitions, so each is logged once
	stop    chan struct{}
	stopped sync.WaitGroup
	closed  sync.Once
}

// quiet is go-redis's logger: it would write to stderr (stdout is MCP's
// in stdio mode, and its lines are not the log's format); the store logs
// its own transitions instead.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

// Open parses o.URL and probes Redis once (within one Timeout): the store
// starts up or down accordingly, and is usable either way. Its error is
// only that of a URL go-redis cannot read, and names no part of it.
func Open(ctx context.Context, o Options) (*Store, error) {
	opts, err := redis.ParseURL(o.URL)
	if err != nil {
		return nil, errors.New("sharedstate: the url is not a redis:// or rediss:// URL")
	}
	if o.Password != "" {
		opts.Password = o.Password
	}
	if o.Timeout <= 0 {
		o.Timeout = limits.R1SharedStateCall
	}
	if o.Probe <= 0 {
		o.Probe = limits.R2SharedStateProbe
	}
	// Every wait is bounded by the command's own deadline: no retry (a
	// retry would double it), no wait for a pooled connection longer than
	// the deadline, and the context's deadline honored.
	opts.MaxRetries = -1
	opts.DialTimeout = o.Timeout
	opts.ReadTimeout = o.Timeout
	opts.WriteTimeout = o.Timeout
	opts.PoolTimeout = o.Timeout
	opts.ContextTimeoutEnabled = true
	opts.DisableIdentity = true // no CLIENT SETINFO: one round trip fewer per connection
	redis.SetLogger(quiet{})
	s := &Store{
		client:  redis.NewClient(opts),
		prefix:  o.Prefix,
		timeout: o.Timeout,
		log:     o.Log,
		onState: o.OnState,
		stop:    make(chan struct{}),
	}
	up := s.ping(ctx) == nil
	s.up.Store(up)
	if !up {
		s.log.Warn().Str("event", "shared_state").Str("state", "down").Msg("redis unreachable at start: in-process state until it answers")
	}
	if s.onState != nil {
		s.onState(up)
	}
	s.stopped.Add(1)
	go s.probe(o.Probe)
	return s, nil
}

// Close stops the probe and closes the connections; the store then
// answers ErrUnavailable.
func (s *Store) Close() {
	s.closed.Do(func() {
		close(s.stop)
		s.stopped.Wait()
		s.up.Store(false)
		s.client.Close()
	})
}

// Up reports whether the store is in use (Redis answered last).
func (s *Store) Up() bool { return s.up.Load() }

// key is the store's name for a key: the deployment's prefix first.
func (s *Store) key(kind, name string) string {
	return s.prefix + ":" + kind + ":" + name
}

// do runs f under the command deadline, unless the store is down; a
// failure of Redis (not a miss) marks it down.
func (s *Store) do(ctx context.Context, f func(context.Context) error) error {
	if !s.up.Load() {
		return ErrUnavailable
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err := f(ctx)
	if err == nil || errors.Is(err, redis.Nil) {
		return err
	}
	if errors.Is(err, context.Canceled) && ctx.Err() == context.Canceled {
		return ErrUnavailable // the call gave up: says nothing of Redis
	}
	s.transition(false, err)
	return ErrUnavailable
}

func (s *Store) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.client.Ping(ctx).Err()
}

// probe pings a down store every interval until Close, and marks it up
// once it answers.
func (s *Store) probe(interval time.Duration) {
	defer s.stopped.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		if !s.up.Load() && s.ping(context.Background()) == nil {
			s.transition(true, nil)
		}
	}
}

// transition records a change of state, once: the log line, the gauge.
func (s *Store) transition(up bool, cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.up.Load() == up {
		return
	}
	select {
	case <-s.stop:
		return // closed: no more transitions
	default:
	}
	s.up.Store(up)
	// The line first, then OnState: whoever OnState tells finds the line
	// written.
	if up {
		s.log.Info().Str("event", "shared_state").Str("state", "up").Msg("redis answers again: state is shared")
	} else {
		s.log.Warn().Str("event", "shared_state").Str("state", "down").Str("cause", causeOf(cause)).
			Msg("redis failed: in-process state until it answers")
	}
	if s.onState != nil {
		s.onState(up)
	}
}

// causeOf names a failure's class, never its text (which could carry an
// address or a server's message): timeout, network, or redis.
func causeOf(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.As(err, &ne):
		return "network"
	}
	return "redis"
}
