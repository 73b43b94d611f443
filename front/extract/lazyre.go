package extract

import (
	"regexp"
	"strings"
	"sync"
)

// lazyRegexp returns a function that compiles src on its first call and
// returns that one *regexp.Regexp on every call, so that a process that
// never extracts a page (most calls are searches) does not pay for
// compiling the extractor's expressions at start-up.
// TestLazyRegexpsCompile compiles every src passed here, so a malformed
// expression fails the tests instead of the first page read.
func lazyRegexp(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}

// keywordGate is a set of lower-case strings of which every match of an
// expression holds one: a text that holds none cannot match, and the
// expression is not run. Go's regexp runs a long unanchored alternation
// at a cost of its size times the text's, on every block of every page;
// the gate makes that cost a few substring searches for nearly all
// blocks. Each expression's tests hold an example of every alternative,
// so a gate that misses one fails them.
type keywordGate []string

// admits reports whether lower, a lower-cased text, holds one of g.
func (g keywordGate) admits(lower string) bool {
	for _, k := range g {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}
