package pdf

import (
	"context"
	"errors"
	"io"
	"time"
)

// budget is one conversion's allowance: the inflated bytes of LIM-F11
// (everything the scan and the reader decompress, each time they do) and
// the time of LIM-F13 within ctx.
type budget struct {
	ctx         context.Context
	deadline    time.Time
	inflated    int64
	maxInflated int64
	err         error // the first bound reached: every read after it fails
}

// newBudget returns the budget of d (LIM-F13) and maxInflated (LIM-F11's
// total) within ctx.
func newBudget(ctx context.Context, d time.Duration, maxInflated int64) *budget {
	return &budget{ctx: ctx, deadline: time.Now().Add(d), maxInflated: maxInflated}
}

// check returns the bound already reached, if any.
func (b *budget) check() error {
	if b.err == nil && (b.ctx.Err() != nil || time.Now().After(b.deadline)) {
		b.err = errTime
	}
	return b.err
}

// charge counts n inflated bytes.
func (b *budget) charge(n int64) error {
	b.inflated += n
	if b.inflated > b.maxInflated && b.err == nil {
		b.err = errBudget
	}
	return b.err
}

// guard is the io.ReaderAt the reader reads the file through. The reader
// decompresses streams itself, whole, with no bound of its own, and
// recovers from nothing it did not expect; it reads a stream's data
// starting exactly at the data's offset, so guard knows each stream the
// reader is about to decompress. Before letting it, guard decompresses
// the stream itself into nothing, charging the budget, and refuses (by
// panicking with the error, which the caller recovers) a stream over
// LIM-F11's per-stream share or whose operands would pile up in the
// reader's stack: the reader then never holds more than that share of
// one stream. Every read also checks the time budget, so a reader that
// loops (a reference cycle, a repeated object stream) stops on time.
type guard struct {
	f       *file
	b       *budget
	objStms map[int64]bool
	seen    map[int64]int64 // stream data offset → inflated bytes (-1: refused)
}

// ReadAt implements io.ReaderAt.
func (g *guard) ReadAt(p []byte, off int64) (int, error) {
	if err := g.b.check(); err != nil {
		panic(err)
	}
	if off >= g.f.size() {
		return 0, io.EOF
	}
	if off < int64(len(g.f.head)+len(g.f.body)) && g.f.streamStart(off) { // the tail's own stream is rypsok's
		if err := g.stream(off); err != nil {
			panic(err)
		}
	}
	n := g.f.readAt(p, off)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// stream vets the stream whose data starts at off, once for its size and
// tokens (every layer of Flate), and charges what it decodes to each time
// it is read.
func (g *guard) stream(off int64) error {
	n, ok := g.seen[off]
	if !ok {
		n = -1
		data := g.f.body[max(0, min(int64(len(g.f.body)), off-int64(len(g.f.head)))):]
		layers, err := g.b.inflate(data)
		switch {
		case errors.Is(err, errHostile):
		case err != nil:
			return err
		default:
			objStm := g.objStms[off-int64(len(g.f.head))]
			n = 0
			for _, l := range layers {
				if !objStm && tokens(l, true) > maxObjectTokens {
					n = -1
					break
				}
				n += int64(len(l))
			}
		}
		g.seen[off] = n
		return g.refused(n)
	}
	if err := g.refused(n); err != nil {
		return err
	}
	return g.b.charge(n)
}

func (g *guard) refused(n int64) error {
	if n < 0 {
		return errHostile
	}
	return nil
}
