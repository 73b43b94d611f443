// Package fetch is the web_fetch pipeline of REQ-PAGE-001: it reads one
// public page through rypsok-egress (agent profile) and answers with its
// main content as Markdown, in a window of characters. Each step is one
// function, and Fetch reads as their list:
//
//	validate    ≤ LIM-F9, absolute http(s), no user info, http upgraded to
//	            https unless allowed (REQ-FETCH-010), the egress policy
//	            judged on the URL (ports, literal addresses, deny rules)
//	secret      secrets.FindInURL (§10): refuse or mask → denied,
//	            secret_in_url (a URL cannot be masked and still mean the
//	            same page); warn → logged; off → skipped
//	strict      strict mode (REQ-SEC-021): Registry URLs and the allow list
//	robots      robots.txt for the URL (REQ-CMP-005): its rules, a 5xx or
//	            429 → denied, robots_txt; not fetched at all (no name, every
//	            address refused, network) → unavailable, network; refused by
//	            the egress policy → denied, egress (robotsRefusal)
//	request     through the egress, LIM-F3 bytes, min(LIM-F4, what is left
//	            of LIM-F5); same-host redirects followed up to LIM-F7, each
//	            target validated and robots-checked again; another host is
//	            the redirected error (or followed when the operator allows)
//	status      4xx and 5xx: unavailable, http_status (REQ-FETCH-011)
//	body        the end trailer: too_large, deadline, network
//	convert     media type (REQ-PAGE-005), charset, main content, Markdown
//	            (front/extract), in a bounded CPU pool; images whose URL
//	            carries a query become inert links (characters_removed)
//	title       boundary.CleanDecodedText, LIM-S10
//	window      start_char and max_chars, in code points
//	instruction boundary.InstructionLike on the title and the window, read
//	            as a reader sees them (Markdown escapes undone):
//	            instruction_like_content
//
// It stops at the tool's response: the MCP layer parses arguments and
// renders the answer.
package fetch

import (
	"context"
	"runtime"
	"sync"

	"time"

	"golang.org/x/sync/semaphore"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/extract"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/robots"
	"github.com/rypsok/rypsok/front/secrets"
	"github.com/rypsok/rypsok/shared/limits"
	"github.com/rypsok/rypsok/shared/policy"
)

// Request is one web_fetch call's arguments. MaxChars zero means the
// configured default (fetch.max_chars); otherwise it must be from 500 to
// fetch.max_chars_ceiling. StartChar must be at least 0 and, once the page
// is read, below its length (0 is always accepted, also for an empty page).
type Request struct {
	URL       string
	MaxChars  int
	StartChar int
}

// Options configures a Pipeline.
type Options struct {
	// Config is rypsok's configuration: its Fetch, Egress (allow_http,
	// allow and deny rules) and Privacy sections are read.
	Config config.Config
	// Egress is the only way out; pages and robots.txt go through its
	// agent-profile client.
	Egress outbound.Egress
	// Robots answers robots.txt questions. When nil and fetch.robots_txt is
	// true, New builds one on Egress (RobotsFetch, agent "rypsok"); when
	// fetch.robots_txt is false it is not used.
	Robots *robots.Checker
	// Strict is the registry of URLs strict mode admits. When nil and
	// fetch.strict_mode is true, strict mode admits the allow list only.
	// Not read when strict mode is off.
	Strict *Registry
	// UserAgent is sent with every request; "" sends none of rypsok's own.
	UserAgent string
	// Log receives warnings (a secret in a URL under warn) and debug lines.
	Log zerolog.Logger

	// callDeadline and responseDeadline replace LIM-F5 and LIM-F4 when
	// set; for tests.
	callDeadline, responseDeadline time.Duration
}

// Pipeline runs web_fetch calls. It is safe for concurrent use.
type Pipeline struct {
	o        Options
	policy   *policy.Policy
	inFlight chan struct{}       // LIM-C8 calls
	cpu      chan struct{}       // parsing and conversion slots
	parsing  *semaphore.Weighted // trees being built and converted: ParseBudget
	wg       sync.WaitGroup
}

// New returns a Pipeline of o.
func New(o Options) *Pipeline {
	if o.callDeadline <= 0 {
		o.callDeadline = limits.F5FetchCallMax
	}
	if o.responseDeadline <= 0 {
		o.responseDeadline = limits.F4ResponseTime
	}
	if !o.Config.Fetch.RobotsTxt {
		o.Robots = nil
	} else if o.Robots == nil {
		o.Robots = robots.New(robots.Options{Fetch: RobotsFetch(o.Egress, o.UserAgent)})
	}
	if o.Config.Fetch.StrictMode && o.Strict == nil {
		o.Strict = NewRegistry(1)
	} else if !o.Config.Fetch.StrictMode {
		o.Strict = nil
	}
	return &Pipeline{
		o: o,
		policy: policy.New(policy.Config{
			AllowHTTP: o.Config.Egress.AllowHTTP,
			Allow:     o.Config.Egress.Allow,
			Deny:      o.Config.Egress.Deny,
		}),
		inFlight: make(chan struct{}, limits.C8FetchInFlight),
		cpu:      make(chan struct{}, max(1, min(limits.C8FetchInFlight, runtime.GOMAXPROCS(0)))),
		parsing:  semaphore.NewWeighted(ParseBudget),
	}
}

// ParseBudget bounds the trees of the pages converted at once, in
// extract.TreeBudget's count (REQ-PERF-003: the front stays under
// 128 MiB). A tree is not known before its page is parsed, so a page
// weighs the most its bytes can make the parser build: treeBytesPerByte
// for each byte, at most extract.TreeBudget, where the parser stops.
// Pages of more than about 400 KB therefore convert one at a time and
// smaller ones side by side (TestHostilePagesKeepTheFrontUnderItsCeiling).
const ParseBudget = extract.TreeBudget

// treeBytesPerByte is the most tree one byte of HTML was measured to
// build before the parser's budget stops it: 8 bytes of "<p>a</p>" are
// two nodes of 112 bytes and a byte of text (28 per byte).
const treeBytesPerByte = 32

// parseWeight is a body's weight against ParseBudget.
func parseWeight(n int) int64 {
	return min(max(int64(n)*treeBytesPerByte, 64<<10), ParseBudget)
}

// Close waits for the conversions that calls abandoned (their context
// ended) to finish. The Pipeline must not be used after.
func (p *Pipeline) Close() { p.wg.Wait() }

// Fetch runs one web_fetch call (REQ-PAGE-001). It returns within LIM-F5
// whatever the page does, and within ctx.
func (p *Pipeline) Fetch(ctx context.Context, req Request) (response.Fetch, *response.Error) {
	maxChars, e := p.checkWindow(req)
	if e != nil {
		return response.Fetch{}, e
	}
	select {
	case p.inFlight <- struct{}{}:
		defer func() { <-p.inFlight }()
	default:
		return response.Fetch{}, response.Unavailable(response.ReasonBusy, -1)
	}
	ctx, cancel := context.WithTimeout(ctx, p.o.callDeadline)
	defer cancel()

	t, e := p.validate(req.URL)
	if e != nil {
		return response.Fetch{}, e
	}
	if e := p.secret(req.URL); e != nil {
		return response.Fetch{}, e
	}
	if e := p.strict(t); e != nil {
		return response.Fetch{}, e
	}
	if e := p.robots(ctx, t); e != nil {
		return response.Fetch{}, e
	}
	pg, e := p.follow(ctx, t)
	if e != nil {
		return response.Fetch{}, e
	}
	// The host only now: the page passed the policy and was fetched (§13.3).
	zerolog.Ctx(ctx).Info().Str("event", "fetch").Str("host", pg.url.host.String()).Int("bytes", len(pg.body)).Send()
	doc, e := p.convert(ctx, pg)
	if e != nil {
		return response.Fetch{}, e
	}
	n := &notices{list: []response.Notice{}}
	title := p.title(doc, n)
	n.add(response.NoticeCharactersRemoved, doc.removed)
	if doc.partial {
		n.add(response.NoticeExtractionPartial, 1)
	}
	out, e := window(doc.content, req.StartChar, maxChars)
	if e != nil {
		return response.Fetch{}, e
	}
	if boundary.InstructionLike(title) || boundary.InstructionLike(out.Content) {
		n.add(response.NoticeInstructionLikeContent, 1) // §9: noticed; content is never dropped
	}
	out.Outcome = response.OutcomeOK
	out.Notices = n.list
	out.URL = pg.url.String()
	out.Title = title
	return out, nil
}

// checkWindow validates max_chars (500 to the ceiling; zero means the
// default) and start_char (≥ 0) before anything leaves.
func (p *Pipeline) checkWindow(req Request) (int, *response.Error) {
	maxChars, ceiling := req.MaxChars, p.o.Config.Fetch.MaxCharsCeiling
	if ceiling < config.MinMaxChars {
		ceiling = limits.F2MaxCharsCeiling
	}
	if maxChars == 0 {
		maxChars = p.o.Config.Fetch.MaxChars
		if maxChars < config.MinMaxChars || maxChars > ceiling {
			maxChars = min(limits.F1MaxCharsDefault, ceiling)
		}
	}
	if maxChars < config.MinMaxChars || maxChars > ceiling {
		return 0, response.InvalidRange("max_chars", config.MinMaxChars, int64(ceiling))
	}
	if req.StartChar < 0 {
		return 0, response.InvalidMin("start_char", 0)
	}
	return maxChars, nil
}

// secret is the secret check of §10 on the URL as the caller wrote it, so
// that the position is in the caller's characters. refuse, and mask (a masked URL
// names another page, so there is nothing to fetch instead), answer
// denied, secret_in_url with the kind and character position of the
// first finding; warn logs it and goes on; off skips the check.
func (p *Pipeline) secret(raw string) *response.Error {
	mode := p.o.Config.Privacy.SecretDetection
	if mode == config.SecretOff {
		return nil
	}
	found := secrets.FindInURL(raw)
	if len(found) == 0 {
		return nil
	}
	if mode == config.SecretWarn {
		p.o.Log.Warn().Str("event", "secret_in_url").Str("kind", string(found[0].Kind)).Int("count", len(found)).Send()
		return nil
	}
	return response.DeniedSecret(response.ReasonSecretInURL, string(found[0].Kind), found[0].Position)
}

// strict is strict mode (REQ-SEC-021): only URLs in the registry, or on a
// host an allow rule names; else denied, strict_mode. Redirect targets are
// chosen by the site, not the caller, and are not checked here.
func (p *Pipeline) strict(t target) *response.Error {
	if p.o.Strict == nil || p.o.Strict.Has(t.String()) || p.allowListed(t) {
		return nil
	}
	return response.Denied(response.ReasonStrictMode)
}

// robots asks robots.txt about t (REQ-CMP-005) and answers as
// robotsRefusal says when it does not allow t; unavailable, deadline when
// the call's time ran out first.
func (p *Pipeline) robots(ctx context.Context, t target) *response.Error {
	if p.o.Robots == nil {
		return nil
	}
	d, err := p.o.Robots.Decide(ctx, t.url)
	switch {
	case err != nil && ctx.Err() != nil:
		return response.Unavailable(response.ReasonDeadline, -1)
	case err != nil:
		return response.Denied(response.ReasonRobotsTxt) // ErrInvalidURL: validate let through what robots cannot judge
	case d.Allowed:
		return nil
	}
	return robotsRefusal(d)
}

// title cleans the page's title (REQ-CTX-004, LIM-S10).
func (p *Pipeline) title(doc document, n *notices) string {
	title, st := boundary.CleanDecodedText(doc.title, limits.S10TitleChars)
	n.add(response.NoticeCharactersRemoved, st.Removed)
	if st.Truncated {
		n.add(response.NoticeTitleTruncated, 1)
	}
	return title
}

// window cuts content to max characters (code points) from start
// (REQ-FETCH-003, REQ-FETCH-005): start beyond the content is
// invalid_request; truncated and next_start_char say where the next call
// starts, so the windows of successive calls rebuild the content exactly.
func window(content string, start, max int) (response.Fetch, *response.Error) {
	rs := []rune(content)
	if start > 0 && start >= len(rs) {
		return response.Fetch{}, response.InvalidRange("start_char", 0, int64(len(rs)-1))
	}
	end := min(start+max, len(rs))
	out := response.Fetch{Content: string(rs[start:end])}
	if end < len(rs) {
		out.Truncated = true
		out.NextStartChar = &end
	}
	return out, nil
}

// notices collects a response's notices, one per code, counts summed.
type notices struct{ list []response.Notice }

func (n *notices) add(code response.NoticeCode, count int) {
	if count <= 0 {
		return
	}
	for i := range n.list {
		if n.list[i].Code == code {
			n.list[i].Count += count
			return
		}
	}
	n.list = append(n.list, response.Notice{Code: code, Count: count})
}

// deadlineOr answers unavailable, deadline when ctx ended, else alt.
func deadlineOr(ctx context.Context, alt *response.Error) *response.Error {
	if ctx.Err() != nil {
		return response.Unavailable(response.ReasonDeadline, -1)
	}
	return alt
}
