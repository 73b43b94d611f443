package engine

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
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
