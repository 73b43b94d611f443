package search

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/pacing"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// The search benchmarks measure rypsok's own overhead per search: the same
// two fake engines (Wikipedia and Brave, each answering LIM-S3 results at
// once on loopback) searched through the pipeline and its egress
// (BenchmarkSearch), and fetched directly with net/http
// (BenchmarkDirect). The difference of their ns/op is what rypsok adds:
// the egress hop over its Unix socket, the drivers, merge, rank and the
// content boundary.

// benchFakes starts the two fake engines, each answering LIM-S3 results
// with markup in the snippets; half of Brave's results are Wikipedia
// articles, so merging has duplicates to fold.
func benchFakes(b *testing.B) (wiki, brv *fake) {
	b.Helper()
	var wikiHits []wikiHit
	var braveHits []braveHit
	for i := range limits.S3ResultsPerEngine {
		title := fmt.Sprintf("Go topic %d", i)
		wikiHits = append(wikiHits, wikiHit{title,
			fmt.Sprintf(`<span class="searchmatch">Go</span> topic %d is an article about the &quot;Go&quot; programming language, its compiler, its runtime, its garbage collector and the tools around it, written for the benchmark`, i)})
		u := fmt.Sprintf("https://example%d.org/go/article?id=%d&utm_source=brave", i, i)
		if i%2 == 0 {
			u = "https://en.wikipedia.org/wiki/Go_topic_" + fmt.Sprint(i)
		}
		braveHits = append(braveHits, braveHit{title + " - a page", u,
			fmt.Sprintf("Everything about <strong>Go</strong> topic %d: a description as long as a search engine gives one, with some markup &amp; entities in it", i)})
	}
	return newFake(b, wikipedia(wikiHits...)), newFake(b, brave(braveHits...))
}

// BenchmarkSearch is one web_search of two engines through the pipeline
// and a real egress in this process.
func BenchmarkSearch(b *testing.B) {
	wiki, brv := benchFakes(b)
	// The providers' pacing (a request per second) would slow the
	// iterations down: the benchmark measures the work, not the pacing.
	p := pipeline(b, Options{Pacer: pacing.NewLocal(nil)},
		engineSpec{"wikipedia", "wikipedia", general, wiki},
		engineSpec{"brave", "brave", general, brv})
	for _, e := range p.opts.Engines {
		e.slots = nil
	}
	// rypsok's own logger (front/cli), writing nowhere.
	p.opts.Log = zerolog.New(io.Discard).Level(zerolog.InfoLevel).With().Timestamp().Str("service", "rypsok").Logger()
	r := Request{Query: "golang", Category: response.CategoryGeneral, MaxResults: limits.S3ResultsPerEngine, Language: "en"}
	ctx := context.Background()
	for b.Loop() {
		got, err := p.Search(ctx, r)
		if err != nil || got.Outcome != response.OutcomeOK || len(got.Results) != limits.S3ResultsPerEngine {
			out, _ := json.Marshal(got)
			b.Fatalf("search: %v %s", err, out)
		}
	}
}

// BenchmarkDirect is the least a caller would do without rypsok: the same
// two engines asked at once with net/http, each answer decoded.
func BenchmarkDirect(b *testing.B) {
	wiki, brv := benchFakes(b)
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	b.Cleanup(client.CloseIdleConnections)
	wikiURL := wiki.srv.URL + "/w/api.php?action=query&list=search&srsearch=golang&srlimit=10&format=json&formatversion=2"
	braveURL := brv.srv.URL + "/res/v1/web/search?q=golang&count=10"
	type wikiAnswer struct {
		Query struct {
			Search []struct{ Title, Snippet string } `json:"search"`
		} `json:"query"`
	}
	type braveAnswer struct {
		Web struct {
			Results []struct{ Title, URL, Description string } `json:"results"`
		} `json:"web"`
	}
	for b.Loop() {
		var wa wikiAnswer
		var ba braveAnswer
		var wg sync.WaitGroup
		var werr, berr error
		wg.Go(func() { werr = getJSON(client, wikiURL, &wa) })
		wg.Go(func() { berr = getJSON(client, braveURL, &ba) })
		wg.Wait()
		if werr != nil || berr != nil || len(wa.Query.Search) != limits.S3ResultsPerEngine || len(ba.Web.Results) != limits.S3ResultsPerEngine {
			b.Fatalf("direct: %v %v, %d and %d results", werr, berr, len(wa.Query.Search), len(ba.Web.Results))
		}
	}
}

// getJSON fetches url and decodes its JSON body into v, reading the body
// to its end so that the connection is kept.
func getJSON(c *http.Client, url string, v any) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body) // to EOF: the connection is reused
	return err
}
