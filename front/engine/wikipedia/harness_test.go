package wikipedia

import (
	"net/http"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// newDriver builds a driver for languages at the endpoint
// url+enginetest.Prefix: the driver must put the Action API's path under
// it.
func newDriver(t *testing.T, url string, languages ...string) engine.Driver {
	t.Helper()
	return enginetest.NewDriver(t, New, url, engine.Config{ID: "wikipedia", UserAgent: enginetest.UserAgent, Languages: languages})
}

// jsonHeader is the Content-Type of an Action API answer.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json; charset=utf-8"}}
}
