package extract

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use, so that a process
// that never extracts a page (most calls are searches) does not pay for
// compiling them at start-up.
type lazyRE struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func lazyRegexp(src string) *lazyRE { return &lazyRE{src: src} }

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRE) MatchString(s string) bool      { return l.get().MatchString(s) }
func (l *lazyRE) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *lazyRE) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
