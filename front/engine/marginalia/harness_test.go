package marginalia

import "github.com/rypsok/rypsok/front/engine/enginetest"

// newDriver builds a driver at the endpoint url+enginetest.Prefix.
var newDriver = enginetest.Builder(New, enginetest.Config("marginalia"))

// jsonHeader is the Content-Type of an API answer.
var jsonHeader = enginetest.ContentType("application/json")

// textHeader is the Content-Type of the limits' answers.
var textHeader = enginetest.ContentType("text/plain")
