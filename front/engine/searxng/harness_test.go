package searxng

import (
	"net/http"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// newDriver builds a driver at the endpoint url+enginetest.Prefix: the
// driver must put /search under it.
func newDriver(t *testing.T, url string) engine.Driver {
	t.Helper()
	return enginetest.NewDriver(t, New, url, engine.Config{ID: "searxng", UserAgent: enginetest.UserAgent, Languages: []string{"en"}})
}

// jsonHeader is the Content-Type of a SearXNG JSON answer.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}}
}

// htmlHeader is the Content-Type of SearXNG's 403 and 429 answers (the
// 429's body is plain text all the same).
func htmlHeader() http.Header {
	return http.Header{"Content-Type": {"text/html; charset=utf-8"}}
}
