package search

import (
	"time"
	"unicode/utf8"

	"github.com/rypsok/rypsok/front/boundary"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/rank"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// merge is normalization, deduplication and ranking (REQ-RANK-002..006):
// every answered engine's list becomes observations, rank.Fuse merges
// them by comparison key and orders them by reciprocal rank fusion.
// Results whose URL is invalid or too long are dropped with a notice.
func (p *Pipeline) merge(sel []selected, lists []answer, n *notices) []rank.Merged[engine.Result] {
	order := make([]string, len(sel))
	weights := map[string]float64{}
	for i, s := range sel {
		order[i] = s.ID
		weights[s.ID] = s.Weight
	}
	obs := make([][]rank.Observation[engine.Result], len(lists))
	for i, a := range lists {
		for r, res := range a.results {
			obs[i] = append(obs[i], rank.Observation[engine.Result]{Engine: a.engine.ID, Rank: r + 1, URL: res.URL, Item: res})
		}
	}
	merged, dropped := rank.Fuse(order, weights, obs)
	for _, d := range dropped {
		n.drop(response.Reason(d.Reason))
	}
	return merged
}

// clean is the content boundary (docs/design: content boundary) and the
// cut (REQ-RANK-007): each
// result's URL has its invisible characters percent-encoded
// (boundary.CleanURL: an engine's "https://evil.t/doc\u202Efdp.exe" shows
// what it is) and is dropped as url_too_long when that takes it past
// LIM-F9; its title and snippet go through the cleaner their provenance
// calls for, bounded by LIM-S10 and LIM-S9; instruction-like results are
// noticed or, when configured, dropped; results are kept in rank order
// until want are kept. The notices count only what was returned
// (characters_removed counts the URL's encoded characters with the
// title's and snippet's removed ones).
func (p *Pipeline) clean(merged []rank.Merged[engine.Result], want int, n *notices) []response.Result {
	out := []response.Result{}
	var titlesCut, snippetsCut, removed, instructionLike int
	for _, m := range merged {
		if len(out) == want {
			break
		}
		url, us := boundary.CleanURL(m.URL)
		if us.Removed > 0 && utf8.RuneCountInString(url) > limits.F9URLChars {
			n.drop(response.ReasonURLTooLong)
			continue
		}
		title, ts := cleanText(m.Item.Title, m.Item.Decoded, limits.S10TitleChars)
		snippet, ss := cleanText(m.Item.Snippet, m.Item.Decoded, limits.S9SnippetChars)
		if boundary.InstructionLike(title) || boundary.InstructionLike(snippet) {
			if p.opts.DropInstructionLike {
				n.drop(response.ReasonInstructionLike)
				continue
			}
			instructionLike++
		}
		if ts.Truncated {
			titlesCut++
		}
		if ss.Truncated {
			snippetsCut++
		}
		removed += us.Removed + ts.Removed + ss.Removed
		out = append(out, response.Result{Title: title, URL: url, Snippet: snippet, Date: validDate(m.Item.Date), Engines: m.Engines})
		if p.opts.Returned != nil {
			p.opts.Returned(url)
		}
	}
	n.add(response.NoticeTitleTruncated, titlesCut)
	n.add(response.NoticeSnippetTruncated, snippetsCut)
	n.add(response.NoticeCharactersRemoved, removed)
	n.add(response.NoticeInstructionLikeContent, instructionLike)
	return out
}

// cleanText chooses the cleaner by provenance (docs/design: content
// boundary): raw provider text
// unless a parser already decoded it.
func cleanText(s string, decoded bool, maxChars int) (string, boundary.Stats) {
	if decoded {
		return boundary.CleanDecodedText(s, maxChars)
	}
	return boundary.CleanMarkupText(s, maxChars)
}

// validDate keeps an RFC 3339 full date, and drops anything else.
func validDate(s string) string {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return ""
	}
	return s
}
