package search

import (
	"time"

	"github.com/rypsok/rypsok/front/response"
)

// notices collects a response's notices: engine notices in the order
// they happen (preference order), then one counted notice per code.
type notices struct {
	engine  []response.Notice
	counts  map[response.NoticeCode]int
	dropped map[response.Reason]int
	// retry is the earliest known time after which a skipped engine can
	// be asked again (retryAfter), 0 when none is known.
	retry time.Duration
}

// countOrder is the order of counted notices in a response.
var countOrder = []response.NoticeCode{
	response.NoticeCredentialMasked,
	response.NoticeTitleTruncated,
	response.NoticeSnippetTruncated,
	response.NoticeCharactersRemoved,
	response.NoticeInstructionLikeContent,
}

func (n *notices) engineNotice(code response.NoticeCode, engine, reason string) {
	n.engine = append(n.engine, response.Notice{Code: code, Engine: engine, Reason: reason})
}

// retryAfter notes that an engine can be asked again after d (unknown
// when d is not positive), keeping the earliest.
func (n *notices) retryAfter(d time.Duration) { n.retry = earliest(n.retry, d) }

// earliest returns the earlier of two known times to wait, where one not
// positive is unknown.
func earliest(a, b time.Duration) time.Duration {
	if b > 0 && (a <= 0 || b < a) {
		return b
	}
	return a
}

// skipped lists the reasons of the engine_skipped notices so far, one
// per skipped engine.
func (n *notices) skipped() []response.Reason {
	var out []response.Reason
	for _, e := range n.engine {
		if e.Code == response.NoticeEngineSkipped {
			out = append(out, response.Reason(e.Reason))
		}
	}
	return out
}

func (n *notices) add(code response.NoticeCode, count int) {
	if count <= 0 {
		return
	}
	if n.counts == nil {
		n.counts = map[response.NoticeCode]int{}
	}
	n.counts[code] += count
}

func (n *notices) drop(reason response.Reason) {
	if n.dropped == nil {
		n.dropped = map[response.Reason]int{}
	}
	n.dropped[reason]++
}

// list returns the notices, never nil.
func (n *notices) list() []response.Notice {
	out := append([]response.Notice{}, n.engine...)
	for _, code := range countOrder {
		if c := n.counts[code]; c > 0 {
			out = append(out, response.Notice{Code: code, Count: c})
		}
	}
	for _, r := range response.DropReasons() {
		if c := n.dropped[r]; c > 0 {
			out = append(out, response.Notice{Code: response.NoticeResultsDropped, Reason: string(r), Count: c})
		}
	}
	return out
}
