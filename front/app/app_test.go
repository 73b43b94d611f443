package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/fetch"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/search"
	"github.com/rypsok/rypsok/front/telemetry"
	"github.com/rypsok/rypsok/shared/limits"
)

func noEnv(string) string { return "" }

func services(t *testing.T) (*Services, *telemetry.Metrics) {
	t.Helper()
	m := telemetry.New()
	return New(Options{Config: config.Default(noEnv), Metrics: m}), m
}

func TestCallOfAToolNotServedIsAProtocolError(t *testing.T) {
	s, _ := services(t)
	for _, tool := range []string{"web_fetch", "nope", ""} {
		if _, _, err := s.Call(context.Background(), "test", tool, nil); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("%q: got %v, want ErrUnknownTool", tool, err)
		}
	}
}

func TestArgumentsMustBeAnObject(t *testing.T) {
	s, _ := services(t)
	for _, raw := range []string{`[]`, `"x"`, `5`, `{`, `{"query": }`} {
		_, terr, _ := s.Call(context.Background(), "test", response.ToolEngineStatus, json.RawMessage(raw))
		if terr == nil || terr.Body.Kind != response.KindInvalidRequest {
			t.Errorf("%s: got %v, want invalid_request", raw, terr)
		}
	}
	if _, terr, _ := s.Call(context.Background(), "test", response.ToolEngineStatus, json.RawMessage(`null`)); terr != nil {
		t.Errorf("null arguments: got %v", terr)
	}
}

func TestTheRateLimitAnswersRateLimitedWithRetryAfter(t *testing.T) {
	now := time.Unix(1000, 0)
	s := New(Options{Config: config.Default(noEnv), Now: func() time.Time { return now }})
	for i := 0; i < limits.C6CallsPerMinute; i++ {
		if _, terr, _ := s.Call(context.Background(), "test", response.ToolEngineStatus, nil); terr != nil {
			t.Fatalf("call %d: %v", i, terr)
		}
	}
	_, terr, _ := s.Call(context.Background(), "test", response.ToolEngineStatus, nil)
	if terr == nil || terr.Body.Detail.Reason != response.ReasonRateLimited || terr.Body.Detail.RetryAfterMs == nil {
		t.Fatalf("call %d: got %v, want unavailable rate_limited with retry_after_ms", limits.C6CallsPerMinute+1, terr)
	}
	if ms := *terr.Body.Detail.RetryAfterMs; ms <= 0 || ms > 1000 {
		t.Errorf("retry_after_ms %d, want about one token's time (500 ms)", ms)
	}
	now = now.Add(time.Second)
	if _, terr, _ := s.Call(context.Background(), "test", response.ToolEngineStatus, nil); terr != nil {
		t.Errorf("after a second: %v", terr)
	}
}

func TestLimitsArePerCaller(t *testing.T) {
	now := time.Unix(1000, 0)
	s := New(Options{Config: config.Default(noEnv), Now: func() time.Time { return now }})
	for i := 0; i < limits.C6CallsPerMinute; i++ {
		s.Call(context.Background(), "flood", response.ToolEngineStatus, nil)
	}
	for i := 0; i < limits.C7CallsInFlight; i++ {
		s.quota("flood").inflight <- struct{}{}
	}
	if _, terr, _ := s.Call(context.Background(), "flood", response.ToolEngineStatus, nil); terr == nil {
		t.Fatal("the flooding caller is still answered")
	}
	if _, terr, _ := s.Call(context.Background(), "other", response.ToolEngineStatus, nil); terr != nil {
		t.Errorf("another caller is refused: %v", terr)
	}
}

func TestAFetchShareBoundsOneCallersFetches(t *testing.T) {
	f := &blockingFetcher{release: make(chan struct{}), started: make(chan struct{}, 3)}
	s := New(Options{Config: config.Default(noEnv), Fetch: f, FetchShare: 2})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			s.Call(context.Background(), "a", response.ToolWebFetch, json.RawMessage(`{"url":"https://example.org/"}`))
		})
	}
	<-f.started
	<-f.started
	_, terr, _ := s.Call(context.Background(), "a", response.ToolWebFetch, json.RawMessage(`{"url":"https://example.org/"}`))
	if terr == nil || terr.Body.Detail.Reason != response.ReasonBusy {
		t.Errorf("a third fetch of one caller: got %v, want busy", terr)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, terr, _ := s.Call(context.Background(), "b", response.ToolWebFetch, json.RawMessage(`{"url":"https://example.org/"}`)); terr != nil {
			t.Errorf("another caller's fetch: %v", terr)
		}
	}()
	<-f.started
	close(f.release)
	<-done
	wg.Wait()
}

// blockingFetcher signals started for every fetch and answers it once
// release is closed.
type blockingFetcher struct {
	release, started chan struct{}
}

func (f *blockingFetcher) Fetch(ctx context.Context, req fetch.Request) (response.Fetch, *response.Error) {
	f.started <- struct{}{}
	select {
	case <-f.release:
	case <-ctx.Done():
	}
	return response.Fetch{Outcome: response.OutcomeOK}, nil
}

func TestCallsBeyondLIMC7AreBusy(t *testing.T) {
	s, m := services(t)
	for i := 0; i < limits.C7CallsInFlight; i++ {
		s.quota("test").inflight <- struct{}{} // calls in flight
	}
	_, terr, _ := s.Call(context.Background(), "test", response.ToolEngineStatus, nil)
	if terr == nil || terr.Body.Detail.Reason != response.ReasonBusy {
		t.Fatalf("got %v, want unavailable busy", terr)
	}
	if n := m.RefusedCount(response.ToolEngineStatus, "unavailable", "busy"); n != 1 {
		t.Errorf("refused counter %v, want 1", n)
	}
}

func TestACallEndsAtItsDeadlineWithOneOutcome(t *testing.T) {
	s, _ := services(t)
	release := make(chan struct{})
	defer close(release)
	slow := func(ctx context.Context) (any, *response.Error) {
		<-release // a tool that ignores its deadline
		return response.Status{Outcome: response.OutcomeOK}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, terr := s.runFunc(ctx, slow)
	if terr == nil || terr.Body.Detail.Reason != response.ReasonDeadline {
		t.Fatalf("got %v, want unavailable deadline", terr)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("did not answer at the deadline")
	}
}

func TestRefusedCallsAreCountedPerToolAndReason(t *testing.T) {
	s, m := services(t)
	s.Call(context.Background(), "test", response.ToolWebSearch, json.RawMessage(`{"query":"x"}`))
	s.Call(context.Background(), "test", response.ToolWebSearch, json.RawMessage(`{}`))
	if n := m.RefusedCount(response.ToolWebSearch, "unavailable", "no_engine"); n != 1 {
		t.Errorf("no_engine count %v", n)
	}
	if n := m.RefusedCount(response.ToolWebSearch, "invalid_request", ""); n != 1 {
		t.Errorf("invalid_request count %v", n)
	}
}

func TestEveryEventOfACallCarriesItsRequestIDAndCaller(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	w := zerolog.SyncWriter(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}))
	searcher := searcherFunc(func(ctx context.Context, req search.Request) (response.Search, *response.Error) {
		zerolog.Ctx(ctx).Info().Str("event", "engine").Send()
		return response.Search{Outcome: response.OutcomeEmpty, Notices: []response.Notice{}, Results: []response.Result{}}, nil
	})
	s := New(Options{Config: config.Default(noEnv), Log: zerolog.New(w), Search: searcher})
	s.Call(context.Background(), "alice", response.ToolWebSearch, json.RawMessage(`{"query":"secret plans"}`))
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	var id string
	for _, line := range lines {
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["caller"] != "alice" || m["request_id"] == nil || m["request_id"] == "" {
			t.Errorf("line lacks request_id or caller: %s", line)
		}
		if id != "" && m["request_id"] != id {
			t.Errorf("request ids differ: %s", line)
		}
		id, _ = m["request_id"].(string)
		if strings.Contains(line, "secret plans") {
			t.Errorf("line carries the query: %s", line)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

type searcherFunc func(context.Context, search.Request) (response.Search, *response.Error)

func (f searcherFunc) Search(ctx context.Context, req search.Request) (response.Search, *response.Error) {
	return f(ctx, req)
}
