package marginalia

import (
	"net/http"
	"testing"

	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/enginetest"
)

// newDriver builds a driver at the endpoint url+enginetest.Prefix.
func newDriver(t *testing.T, url string) engine.Driver {
	t.Helper()
	return enginetest.NewDriver(t, New, url, engine.Config{ID: "marginalia", UserAgent: enginetest.UserAgent, Languages: []string{"en"}})
}

// jsonHeader is the Content-Type of an API answer.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}}
}

// textHeader is the Content-Type of the limits' answers.
func textHeader() http.Header {
	return http.Header{"Content-Type": {"text/plain"}}
}
