package stackexchange

import (
	"bytes"
	"compress/gzip"
	"net/http"
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
	d := enginetest.NewDriver(t, New, url, enginetest.Config("stackexchange")).(*driver)
	d.now = func() time.Time { return testNow }
	return d
}

// jsonHeader is the Content-Type of an API answer.
var jsonHeader = enginetest.ContentType("application/json; charset=utf-8")

// gzipHeader is jsonHeader with Content-Encoding: gzip, as the API sends
// every answer.
func gzipHeader() http.Header {
	h := jsonHeader()
	h.Set("Content-Encoding", "gzip")
	return h
}

// htmlHeader is the Content-Type of the edge's pages.
var htmlHeader = enginetest.ContentType("text/html; charset=UTF-8")

// gz returns b gzipped.
func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
