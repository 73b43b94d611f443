package search

import (
	"context"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/rypsok/rypsok/front/response"
)

func BenchmarkZZLatencies(b *testing.B) {
	wiki, brv := benchFakes(b)
	p := pipeline(b, Options{},
		engineSpec{"wikipedia", "wikipedia", general, wiki},
		engineSpec{"brave", "brave", general, brv})
	for _, e := range p.opts.Engines {
		e.pace, e.slots = nil, nil
	}
	p.opts.Log = zerolog.New(io.Discard)
	r := Request{Query: "golang", Category: response.CategoryGeneral, MaxResults: 10, Language: "en"}
	var ds []time.Duration
	for b.Loop() {
		s := time.Now()
		p.Search(context.Background(), r)
		ds = append(ds, time.Since(s))
	}
	slices.Sort(ds)
	n := len(ds)
	b.Logf("n=%d p50=%v p90=%v p99=%v max=%v top5=%v", n, ds[n/2], ds[n*9/10], ds[n*99/100], ds[n-1], ds[max(0, n-5):])
}
