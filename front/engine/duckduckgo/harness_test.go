package duckduckgo

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// newDriver builds a driver at the endpoint url+enginetest.Prefix: the
// driver must put /html/ under it.
var newDriver = enginetest.Builder(New, enginetest.Config("duckduckgo"))

// htmlHeader is the Content-Type of every page of the endpoint.
var htmlHeader = enginetest.ContentType("text/html; charset=UTF-8")

// serve starts a fake endpoint answering status and the fixture file, and
// asks it once.
func serve(t *testing.T, status int, body []byte) ([]engine.Result, error) {
	t.Helper()
	srv, _ := enginetest.Fake(t, searchPath, enginetest.Canned{Status: status, Header: htmlHeader(), Body: body})
	return enginetest.SearchOnce(t, newDriver(t, srv.URL))
}

// boundOf parses doc and returns what bound says of it.
func boundOf(t *testing.T, doc string) string {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return bound(root)
}
