package gdelt

import "github.com/rypsok/rypsok/front/engine/enginetest"

// newDriver builds a driver at the endpoint url+enginetest.Prefix.
var newDriver = enginetest.Builder(New, enginetest.Config("gdelt"))

// jsonHeader is the Content-Type of an artlist answer.
var jsonHeader = enginetest.ContentType("application/json; charset=utf-8")

// textHeader is the Content-Type of the API's refusals.
var textHeader = enginetest.ContentType("text/html; charset=utf-8")
