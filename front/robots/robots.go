// Package robots decides whether rypsok may fetch a URL under its site's
// robots.txt (RFC 9309), with github.com/jimsmart/grobotstxt. It fetches
// robots.txt through a function it is given (the front's egress client) and
// caches each origin's answer for the process, within a bound.
//
// It stops at the decision: it does not fetch pages, follow page redirects
// or turn a refusal into a tool error. web_fetch asks it once for the URL
// and once for every redirect target, and turns each Reason into its own
// answer (front/fetch).
//
// How a robots.txt response is read (RFC 9309 §2.3.1):
//
//	2xx                      the first 500 KiB are parsed as rules
//	3xx with a Location      followed, up to 5 redirects, each hop through Fetch,
//	                         to any host; the rules reached apply to the first origin
//	3xx beyond 5 redirects   unavailable: everything allowed (RFC 9309 §2.3.1.2)
//	3xx without a usable     unavailable: everything allowed (the redirect
//	Location                 leads to no robots.txt, as beyond 5 redirects)
//	4xx except 429           unavailable: everything allowed (RFC 9309 §2.3.1.3)
//	429                      unreachable: everything disallowed (a rate limit
//	                         is a server condition, not an absent file)
//	5xx                      unreachable: everything disallowed, the body is
//	                         never parsed (RFC 9309 §2.3.1.4)
//	1xx, ≥600, below 100     unreachable: everything disallowed
//	no HTTP answer           network: nothing is known, nothing allowed, and
//	                         the answer is not cached (see ReasonNetwork)
//	refused by the egress    refused: nothing allowed (see ErrRefused)
package robots

import (
	"container/list"
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Defaults for the zero values of Options.
const (
	DefaultAgent          = "rypsok"
	DefaultMaxOrigins     = 1024
	DefaultMaxBytes       = 32 << 20
	DefaultTTL            = time.Hour
	DefaultUnreachableTTL = time.Minute
	// MaxTTL is the longest a robots.txt answer is used (RFC 9309 §2.4:
	// SHOULD NOT use a cached copy for more than 24 hours).
	MaxTTL = 24 * time.Hour
	// MaxBodyBytes is how much of a robots.txt is parsed (RFC 9309 §2.5:
	// at least 500 KiB); the rest is ignored.
	MaxBodyBytes = 500 << 10
	// MaxRedirects is how many consecutive redirects of robots.txt are
	// followed (RFC 9309 §2.3.1.2: at least five).
	MaxRedirects = 5
)

// ErrRefused is wrapped by a Fetch error when the egress refused the
// robots.txt request by its policy (a deny rule, a port, an address
// literal in a refused range), as opposed to a request that got no answer
// (the name does not resolve, every address is refused, the network
// failed). The Checker answers ReasonRefused for it.
var ErrRefused = errors.New("robots: the egress policy refuses the destination")

// ErrInvalidURL is returned by Allowed and Decide for a URL they cannot
// judge: a scheme other than http or https, or no host. web_fetch validates
// URLs first, so it does not meet this error.
var ErrInvalidURL = errors.New("robots: url is not an absolute http or https url")

// Response is what a Fetch got for one robots.txt request.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Location is the Location header of a 3xx response, as sent (it may
	// be relative); empty otherwise.
	Location string
	// Body is at most the limit Fetch was given. It is ignored unless
	// Status is 2xx.
	Body []byte
}

// Fetch gets robotsURL with a GET and returns the response, with at most
// limit bytes of body. It must not follow redirects: the Checker follows
// them itself, each hop through Fetch. It returns an error when no HTTP
// response came: one wrapping ErrRefused when the egress refused the
// destination by policy (ReasonRefused); any other (name not resolved,
// every address refused, connection refused or reset, timed out, body
// cut) is ReasonNetwork, unless ctx ended, when nothing was learned.
type Fetch func(ctx context.Context, robotsURL string, limit int64) (Response, error)

// Options configures a Checker. The zero value of each field selects its
// default.
type Options struct {
	// Agent is the product token matched against User-agent lines, case
	// insensitively (RFC 9309 §2.2.1: letters, "_" and "-"). Empty means
	// DefaultAgent, "rypsok".
	Agent string
	// Fetch gets robots.txt files. Nil makes every fetch fail
	// (ReasonNetwork), so nothing is allowed.
	Fetch Fetch
	// MaxOrigins bounds how many origins' answers are cached; the least
	// recently used is evicted first. Zero or negative means
	// DefaultMaxOrigins (1024).
	MaxOrigins int
	// MaxBytes bounds the total robots.txt bytes cached (each origin holds
	// at most MaxBodyBytes); the least recently used is evicted first.
	// Zero or negative means DefaultMaxBytes (32 MiB).
	MaxBytes int
	// TTL is how long a parsed or unavailable answer is used before
	// robots.txt is fetched again. Zero or negative means DefaultTTL
	// (1 hour); above MaxTTL (24 hours) means MaxTTL.
	TTL time.Duration
	// UnreachableTTL is how long an unreachable answer (5xx, 429) or a
	// refused one is used, so a failing site is not asked on every call
	// yet recovers soon. Zero or negative means DefaultUnreachableTTL
	// (1 minute); above TTL means TTL. A network answer is never cached.
	UnreachableTTL time.Duration
	// Now is the clock. Nil means time.Now.
	Now func() time.Time
}

// Reason says on what ground a Decision was made.
type Reason uint8

// The reasons, a fixed vocabulary for logs and metrics.
const (
	// ReasonRules: robots.txt was fetched and its rules were applied (an
	// empty or rule-less file allows everything).
	ReasonRules Reason = iota
	// ReasonUnavailable: robots.txt is unavailable (4xx, or no file at the
	// end of the redirects), so everything is allowed.
	ReasonUnavailable
	// ReasonUnreachable: robots.txt answered 5xx, 429 or a status HTTP
	// does not define (Decision.Status says which), so everything is
	// disallowed (RFC 9309 §2.3.1.4: the server said it cannot serve now).
	ReasonUnreachable
	// ReasonNetwork: no HTTP answer came (Fetch failed: the name does not
	// resolve, every address is refused, the connection failed or timed
	// out). Nothing is known of robots.txt, so nothing is allowed; the
	// answer is shared by the callers already waiting for it and then
	// forgotten, so a later call asks again: a site that could not be
	// reached for a moment is not held as disallowing.
	ReasonNetwork
	// ReasonRefused: the egress refused the robots.txt request by its
	// policy (Fetch's error wraps ErrRefused), so nothing is allowed.
	ReasonRefused
)

// String returns the reason's log and metric name.
func (r Reason) String() string {
	switch r {
	case ReasonRules:
		return "rules"
	case ReasonUnavailable:
		return "unavailable"
	case ReasonUnreachable:
		return "unreachable"
	case ReasonNetwork:
		return "network"
	case ReasonRefused:
		return "refused"
	}
	return "unknown"
}

// Decision is the answer for one URL, with its ground.
type Decision struct {
	Allowed bool
	Reason  Reason
	// Status is the HTTP status of the last robots.txt response read (the
	// one that decided), 0 when none came (ReasonNetwork, ReasonRefused).
	Status int
	// Redirects is how many redirects of robots.txt were followed before
	// the deciding answer (at most MaxRedirects).
	Redirects int
}

// Checker answers robots.txt questions and caches each origin's answer.
// It is safe for concurrent use; concurrent callers for one origin share
// one fetch.
type Checker struct {
	agent          string
	fetch          Fetch
	maxOrigins     int
	maxBytes       int
	ttl            time.Duration
	unreachableTTL time.Duration
	now            func() time.Time

	mu    sync.Mutex
	byKey map[string]*entry
	lru   *list.List // of *entry, most recently used at the front
	bytes int
}

// entry is one origin's answer, or the fetch of it in flight.
type entry struct {
	key  string
	elem *list.Element
	done chan struct{} // closed when ans (or failed) is set

	// Set before done is closed, read only after.
	ans     answer
	failed  bool // the fetcher's ctx ended; nothing was learned
	expires time.Time
}

// answer is what robots.txt says for an origin.
type answer struct {
	reason    Reason
	rules     string // the body, when reason is ReasonRules
	status    int    // Decision.Status
	redirects int    // Decision.Redirects
}

// New returns a Checker with o's settings.
func New(o Options) *Checker {
	c := &Checker{
		agent:          o.Agent,
		fetch:          o.Fetch,
		maxOrigins:     o.MaxOrigins,
		maxBytes:       o.MaxBytes,
		ttl:            o.TTL,
		unreachableTTL: o.UnreachableTTL,
		now:            o.Now,
		byKey:          make(map[string]*entry),
		lru:            list.New(),
	}
	if c.agent == "" {
		c.agent = DefaultAgent
	}
	if c.fetch == nil {
		c.fetch = func(context.Context, string, int64) (Response, error) {
			return Response{}, errors.New("robots: no fetch function")
		}
	}
	if c.maxOrigins <= 0 {
		c.maxOrigins = DefaultMaxOrigins
	}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.ttl <= 0 {
		c.ttl = DefaultTTL
	}
	c.ttl = min(c.ttl, MaxTTL)
	if c.unreachableTTL <= 0 {
		c.unreachableTTL = DefaultUnreachableTTL
	}
	c.unreachableTTL = min(c.unreachableTTL, c.ttl)
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// Allowed reports whether u may be fetched under its origin's robots.txt.
// The error is ctx's when ctx ends first, or ErrInvalidURL; an unreachable,
// refused or network-failed robots.txt gives false and no error.
func (c *Checker) Allowed(ctx context.Context, u *url.URL) (bool, error) {
	d, err := c.Decide(ctx, u)
	return d.Allowed, err
}

// Decide is Allowed with the ground of the answer. The origin
// (scheme://host:port) is fetched once and the answer shared by
// concurrent callers and cached; when the caller that fetches gives up
// (its ctx ends), a waiting caller fetches instead.
func (c *Checker) Decide(ctx context.Context, u *url.URL) (Decision, error) {
	key, robotsURL, err := origin(u)
	if err != nil {
		return Decision{}, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return Decision{}, err
		}
		e, fetcher := c.lookup(key)
		if fetcher {
			ans, err := c.resolve(ctx, robotsURL)
			c.finish(e, ans, err)
			if err != nil {
				return Decision{}, err
			}
			return c.judge(ans, u), nil
		}
		select {
		case <-e.done:
			if !e.failed {
				return c.judge(e.ans, u), nil
			}
			// The fetcher gave up; try again, perhaps as the fetcher.
		case <-ctx.Done():
			return Decision{}, ctx.Err()
		}
	}
}

// lookup returns key's entry, fresh or in flight, and whether the caller
// must fetch it (a new entry was made).
func (c *Checker) lookup(key string) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		select {
		case <-e.done:
			if c.now().Before(e.expires) {
				c.lru.MoveToFront(e.elem)
				return e, false
			}
			c.remove(e)
		default: // in flight
			c.lru.MoveToFront(e.elem)
			return e, false
		}
	}
	e := &entry{key: key, done: make(chan struct{})}
	e.elem = c.lru.PushFront(e)
	c.byKey[key] = e
	c.evict()
	return e, true
}

// finish records the fetcher's outcome on e and wakes its waiters. A
// failed fetch (ctx ended) is forgotten, so the next caller fetches again;
// so is a network answer once its waiters have it.
func (c *Checker) finish(e *entry, ans answer, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	present := c.byKey[e.key] == e
	if err != nil {
		e.failed = true
		if present {
			c.remove(e)
		}
		close(e.done)
		return
	}
	e.ans = ans
	ttl := c.ttl
	if ans.reason == ReasonUnreachable || ans.reason == ReasonRefused {
		ttl = c.unreachableTTL
	}
	e.expires = c.now().Add(ttl)
	close(e.done)
	if present && ans.reason == ReasonNetwork {
		c.remove(e)
		return
	}
	if present { // else evicted while in flight: answer the waiters, cache nothing
		c.bytes += len(ans.rules)
		c.evict()
	}
}

// evict drops least recently used entries until the cache is within its
// bounds. The most recent entry stays even if it alone is over MaxBytes.
func (c *Checker) evict() {
	for c.lru.Len() > 1 && (c.lru.Len() > c.maxOrigins || c.bytes > c.maxBytes) {
		c.remove(c.lru.Back().Value.(*entry))
	}
}

// remove drops e from the cache; c.mu is held.
func (c *Checker) remove(e *entry) {
	c.lru.Remove(e.elem)
	delete(c.byKey, e.key)
	select {
	case <-e.done:
		if !e.failed {
			c.bytes -= len(e.ans.rules)
		}
	default: // in flight: its bytes are not counted yet
	}
}

// origin returns u's cache key, scheme://host:port with the default port
// made explicit, and its robots.txt URL.
func origin(u *url.URL) (key, robotsURL string, err error) {
	if u == nil {
		return "", "", ErrInvalidURL
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	switch {
	case host == "":
		return "", "", ErrInvalidURL
	case scheme == "http" && port == "":
		port = "80"
	case scheme == "https" && port == "":
		port = "443"
	case scheme != "http" && scheme != "https":
		return "", "", ErrInvalidURL
	}
	key = scheme + "://" + net.JoinHostPort(host, port)
	// The robots.txt URL keeps a default port implicit, as browsers send it.
	authority := host
	if strings.Contains(host, ":") {
		authority = "[" + host + "]"
	}
	if (scheme == "http" && port != "80") || (scheme == "https" && port != "443") {
		authority = net.JoinHostPort(host, port)
	}
	return key, scheme + "://" + authority + "/robots.txt", nil
}
