package searxng

import "github.com/rypsok/rypsok/front/engine/enginetest"

// newDriver builds a driver at the endpoint url+enginetest.Prefix: the
// driver must put /search under it.
var newDriver = enginetest.Builder(New, enginetest.Config("searxng"))

// jsonHeader is the Content-Type of a SearXNG JSON answer.
var jsonHeader = enginetest.ContentType("application/json")

// htmlHeader is the Content-Type of SearXNG's 403 and 429 answers (the
// 429's body is plain text all the same).
var htmlHeader = enginetest.ContentType("text/html; charset=utf-8")
