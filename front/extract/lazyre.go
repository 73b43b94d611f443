package extract

import (
	"regexp"
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
