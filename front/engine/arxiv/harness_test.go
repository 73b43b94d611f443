package arxiv

import (
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// testNow is the tests' clock: 2026-08-06 12:00:00 UTC.
var testNow = time.Date(2026, 8, 6, 12, 0, 0, 0, time.UTC)

// newDriver builds a driver at the endpoint url+enginetest.Prefix, its
// clock at testNow.
func newDriver(t *testing.T, url string) *driver {
	t.Helper()
	d := enginetest.NewDriver(t, New, url, enginetest.Config("arxiv")).(*driver)
	d.now = func() time.Time { return testNow }
	return d
}

// atomHeader is the Content-Type of an API answer.
var atomHeader = enginetest.ContentType("application/atom+xml; charset=utf-8")

// htmlHeader is the Content-Type of a page.
var htmlHeader = enginetest.ContentType("text/html; charset=utf-8")

// textHeader is the Content-Type of the rate limiter's answer.
var textHeader = enginetest.ContentType("text/plain")
