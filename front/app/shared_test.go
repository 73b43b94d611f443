package app

import (
	"context"
	"testing"
	"time"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/sharedstate"
	"github.com/rypsok/rypsok/front/sharedstate/redistest"
	"github.com/rypsok/rypsok/shared/limits"
)

// TestLIMC6AcrossReplicas: two replicas sharing one real Redis give a
// caller LIM-C6 in all, not each: its calls alternate between them, and
// the one past LIM-C6 is rate_limited on either, with retry_after_ms;
// another caller is not. With Redis killed, each replica applies LIM-C6
// on its own, and every call still answers at once.
func TestLIMC6AcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	var replicas []*Services
	var states []chan bool
	for range 2 {
		st := make(chan bool, 8)
		store, err := sharedstate.Open(context.Background(), sharedstate.Options{URL: srv.URL(), Prefix: "t", OnState: func(up bool) { st <- up }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(store.Close)
		if !<-st {
			t.Fatal("down at start")
		}
		states = append(states, st)
		replicas = append(replicas, New(Options{Config: config.Default(noEnv), Shared: store}))
	}
	call := func(i int, caller string) *response.Error {
		_, terr, _ := replicas[i%2].Call(context.Background(), caller, response.ToolEngineStatus, nil)
		return terr
	}
	for i := range limits.C6CallsPerMinute {
		if terr := call(i, "a"); terr != nil {
			t.Fatalf("call %d: %v", i, terr)
		}
	}
	for i := range 2 {
		terr := call(i, "a")
		if terr == nil || terr.Body.Detail.Reason != response.ReasonRateLimited || terr.Body.Detail.RetryAfterMs == nil || *terr.Body.Detail.RetryAfterMs <= 0 {
			t.Errorf("replica %d, call %d: %v, want rate_limited with retry_after_ms", i, limits.C6CallsPerMinute+1, terr)
		}
	}
	if terr := call(0, "b"); terr != nil {
		t.Errorf("caller b: %v", terr)
	}
	srv.Kill()
	for i := range 2 {
		start := time.Now()
		if terr := call(i, "a"); terr != nil || time.Since(start) > limits.R1SharedStateCall+limits.S13StatusCallMax {
			t.Errorf("replica %d without redis: %v after %v, want answered by its own LIM-C6", i, terr, time.Since(start))
		}
		if <-states[i] {
			t.Errorf("replica %d: not down", i)
		}
	}
}
