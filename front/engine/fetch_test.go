package engine

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

type failing struct{}

func (failing) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("connection refused")
}

func TestFetchErrorsNeverCarryTheQuery(t *testing.T) {
	req, _ := http.NewRequest("GET", "https://engine.test/search?q=very-private-query", nil)
	_, err := Fetch(context.Background(), &http.Client{Transport: failing{}}, req, 1<<10)
	if err == nil || ClassOf(err) != "network" {
		t.Fatalf("got %v, want a network error", err)
	}
	if strings.Contains(err.Error(), "very-private-query") || strings.Contains(err.Error(), "engine.test") {
		t.Fatalf("error %q carries the URL", err)
	}
}

func TestRetryAfterIsCappedWithoutOverflow(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0}, {"0", 0}, {"-5", 0}, {"soon", 0}, {"5", 5 * time.Second},
		{"3600", time.Hour}, {"3601", time.Hour}, {"12444444440", time.Hour}, {"9223372036854775807", time.Hour},
	} {
		if got := RetryAfter(http.Header{"Retry-After": {tc.v}}); got != tc.want {
			t.Errorf("Retry-After %q: got %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestNewRequest(t *testing.T) {
	api := &url.URL{Scheme: "https", Host: "engine.test", Path: "/search"}
	hr, err := NewRequest(api, url.Values{"q": {"a b"}}, "rypsok/test")
	if err != nil {
		t.Fatal(err)
	}
	if hr.Method != http.MethodGet || hr.URL.String() != "https://engine.test/search?q=a+b" {
		t.Errorf("request %s %s", hr.Method, hr.URL)
	}
	if hr.Header.Get("Accept") != "application/json" || hr.Header.Get("User-Agent") != "rypsok/test" {
		t.Errorf("headers %v", hr.Header)
	}
	if api.RawQuery != "" {
		t.Errorf("api changed to %s", api)
	}
	hr, err = NewRequest(api, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := hr.Header["User-Agent"]; ok {
		t.Errorf("User-Agent %q set without one", hr.Header.Get("User-Agent"))
	}
}
