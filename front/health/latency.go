package health

import (
	"slices"
	"time"

	"github.com/rypsok/rypsok/shared/limits"
)

// window holds the latencies of an engine's last LIM-S11 completed
// requests.
type window struct {
	vals [limits.S11LatencyWindow]time.Duration
	n    int // how many of vals hold a latency
	next int // where the next latency goes, over the oldest
}

func (w *window) add(d time.Duration) {
	w.vals[w.next] = d
	w.next = (w.next + 1) % len(w.vals)
	w.n = min(w.n+1, len(w.vals))
}

// median is the median of the window, the mean of the two middle values
// when it holds an even count; ok is false when it is empty.
func (w *window) median() (median time.Duration, ok bool) {
	if w.n == 0 {
		return 0, false
	}
	sorted := w.vals // a copy
	s := sorted[:w.n]
	slices.Sort(s)
	mid := w.n / 2
	if w.n%2 == 1 {
		return s[mid], true
	}
	return s[mid-1] + (s[mid]-s[mid-1])/2, true
}
