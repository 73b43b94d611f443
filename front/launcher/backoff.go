package launcher

import "time"

// backoff is the delay before a restart: min, doubled after each restart
// up to max, and min again after a run that stayed up longer than max.
type backoff struct {
	min, max time.Duration
	last     time.Duration // the previous delay, 0 before the first
}

// next returns the delay before the restart that follows a run of ran.
func (b *backoff) next(ran time.Duration) time.Duration {
	switch {
	case b.last == 0 || ran > b.max:
		b.last = b.min
	default:
		b.last = min(2*b.last, b.max)
	}
	return b.last
}
