package search

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/front/response"
)

// TestZeroConfigurationServesRecentResults checks issue 19's complaint
// that time_range on a general search answered no_engine: with zero
// configuration (no key either), every category web_search lists selects
// at least one engine for time_range day, week and month, in the first
// configured language. Nothing is asked: only the selection runs.
func TestZeroConfigurationServesRecentResults(t *testing.T) {
	cfg := config.Default(func(string) string { return "" })
	var engines []*Engine
	listed := map[response.Category]bool{}
	for _, e := range cfg.Engines {
		if e.State != config.EngineActive {
			continue
		}
		d, err := drivers.New(e.Type, engine.Config{ID: e.ID, UserAgent: "rypsok/test", Languages: cfg.Search.Languages})
		if err != nil {
			t.Fatal(err)
		}
		engines = append(engines, NewEngine(e.ID, e.Categories, e.Weight, d, nil))
		for _, c := range e.Categories {
			listed[response.Category(c)] = true
		}
	}
	p := New(Options{Engines: engines})
	for _, c := range response.Categories() {
		if !listed[c] {
			t.Errorf("category %s is not listed with zero configuration", c)
			continue
		}
		for _, r := range []response.TimeRange{response.TimeRangeDay, response.TimeRangeWeek, response.TimeRangeMonth} {
			var n notices
			r := Request{Query: "latest news", Category: c, MaxResults: 5, Language: cfg.Search.Languages[0], TimeRange: r}
			sel := p.selectEngines(r, r.Query, nil, &n)
			var ids []string
			for _, s := range sel {
				ids = append(ids, s.ID)
			}
			if len(ids) == 0 {
				t.Errorf("%s, time_range %s: no engine (skipped: %v)", c, r.TimeRange, n.skipped())
			}
			if c == response.CategoryNews && !slices.Contains(ids, "gdelt") {
				t.Errorf("news, time_range %s: %v, want gdelt among them", r.TimeRange, ids)
			}
		}
	}
}

// serve answers with body as JSON.
func serve(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

// TestNewsOfTheWeekShowsDates runs a news search of the week through
// GDELT and Hacker News behind a real egress: both are asked with the
// week's window, and each result shows the date its engine gave.
func TestNewsOfTheWeekShowsDates(t *testing.T) {
	gd := newFake(t, serve(`{"articles": [{"url": "https://news.example.org/wind", "title": "Wind auction", "seendate": "20260901T121500Z", "domain": "news.example.org", "language": "English", "sourcecountry": "United Kingdom"}]}`))
	hn := newFake(t, serve(`{"hits": [{"objectID": "41234567", "title": "Rustc is faster", "url": "https://blog.example.org/rustc", "created_at": "2026-08-30T14:02:11.000Z", "points": 412, "num_comments": 187}]}`))
	news := []string{"news"}
	p := pipeline(t, Options{}, engineSpec{"gdelt", "gdelt", news, gd}, engineSpec{"hackernews", "hackernews", news, hn})
	r := req("wind")
	r.Category, r.TimeRange = response.CategoryNews, response.TimeRangeWeek
	got, err := p.Search(context.Background(), r)
	if err != nil || got.Outcome != response.OutcomeOK || len(got.Results) != 2 {
		t.Fatalf("got %s %v", marshal(t, got), err)
	}
	dates := map[string]string{}
	for _, res := range got.Results {
		dates[res.Engines[0]] = res.Date
	}
	if dates["gdelt"] != "2026-09-01" || dates["hackernews"] != "2026-08-30" {
		t.Errorf("dates by engine %v, want gdelt 2026-09-01 and hackernews 2026-08-30", dates)
	}
	if gd.requests.Load() != 1 || hn.requests.Load() != 1 {
		t.Errorf("gdelt asked %d times, hackernews %d; want once each", gd.requests.Load(), hn.requests.Load())
	}
}
