package hackernews

import "github.com/rypsok/rypsok/front/engine/enginetest"

// newDriver builds a driver at the endpoint url+enginetest.Prefix.
var newDriver = enginetest.Builder(New, enginetest.Config("hackernews"))

// jsonHeader is the Content-Type of the API's answers.
var jsonHeader = enginetest.ContentType("application/json; charset=utf-8")
