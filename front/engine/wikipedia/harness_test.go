package wikipedia

import (
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

// newEnglish builds a driver for English at the endpoint
// url+enginetest.Prefix.
func newEnglish(t *testing.T, url string) engine.Driver {
	t.Helper()
	return newDriver(t, url, "en")
}

// jsonHeader is the Content-Type of an Action API answer.
var jsonHeader = enginetest.ContentType("application/json; charset=utf-8")
