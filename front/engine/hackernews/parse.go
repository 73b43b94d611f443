package hackernews

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/response"
)

// itemURL is a story's discussion page, the URL of a story without a
// link of its own (Ask HN, Show HN with text).
const itemURL = "https://news.ycombinator.com/item?id="

// answer is the part of a search answer the driver reads: hits is
// required (a pointer, so that its absence shows); nbHits, page and the
// rest are not read.
type answer struct {
	Hits *[]json.RawMessage `json:"hits"`
}

// hit is one story. title is plain text; story_text, the text of a
// story without a link, is HTML with entities. _highlightResult is not
// read.
type hit struct {
	ObjectID    string `json:"objectID"`
	Title       string `json:"title"`
	URL         string `json:"url"`
	StoryText   string `json:"story_text"`
	CreatedAt   string `json:"created_at"`
	Points      *int   `json:"points"`
	NumComments *int   `json:"num_comments"`
}

// parse classifies a and returns at most limit of its stories. Every
// failure is an *engine.Error.
//
// Results carry markup (Decoded false): a title, plain text, is
// HTML-escaped so that the markup cleaner gives it back as it was; the
// snippet is the story's text (HTML) or, for a link, what Hacker News
// made of it ("412 points, 187 comments on Hacker News"). A story without
// a link is its discussion page; one with neither a usable link nor an
// id is dropped. The date is the day the story was posted.
func parse(a *engine.Answer, limit int) ([]engine.Result, error) {
	if e := engine.ClassifyStatus(a); e != nil {
		return nil, e
	}
	var ans answer
	if err := json.Unmarshal(a.Body, &ans); err != nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a Hacker News answer: %v", err)
	}
	if ans.Hits == nil {
		return nil, engine.Errorf(response.ClassBadResponse, "not a Hacker News answer: no hits list")
	}
	results := make([]engine.Result, 0, min(len(*ans.Hits), limit))
	for _, raw := range *ans.Hits {
		if len(results) == limit {
			break
		}
		var h hit
		if json.Unmarshal(raw, &h) != nil {
			continue
		}
		u := h.URL
		if !engine.WebURL(u) {
			if h.ObjectID == "" || strings.ContainsFunc(h.ObjectID, notDigit) {
				continue
			}
			u = itemURL + h.ObjectID
		}
		results = append(results, engine.Result{
			Title:   html.EscapeString(h.Title),
			URL:     u,
			Snippet: snippet(h),
			Date:    engine.LeadingDate(h.CreatedAt, "T"),
		})
	}
	return results, nil
}

// snippet is a story's text, else its points and comments.
func snippet(h hit) string {
	if strings.TrimSpace(h.StoryText) != "" {
		return h.StoryText
	}
	if h.Points == nil || h.NumComments == nil {
		return ""
	}
	return fmt.Sprintf("%d points, %d comments on Hacker News", *h.Points, *h.NumComments)
}

func notDigit(r rune) bool { return r < '0' || r > '9' }
