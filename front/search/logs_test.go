package search

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/config"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestNothingOfTheQueryReachesTheLog searches with a distinctive query,
// one engine answering and one failing, in warn mode with a secret, and
// reads every log line at debug level.
func TestNothingOfTheQueryReachesTheLog(t *testing.T) {
	var logs lockedBuffer
	p := pipeline(t, Options{Secrets: config.SecretWarn},
		engineSpec{"wikipedia", "wikipedia", general, newFake(t, wikipedia(wikiHit{"A", "a"}))},
		engineSpec{"brave", "brave", general, newFake(t, fail(500))})
	p.opts.Log = zerolog.New(&logs).Level(zerolog.DebugLevel)
	if _, err := p.Search(context.Background(), req("zebra-quokka AKIAIOSFODNN7EXAMPLE")); err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	if !strings.Contains(out, `"event":"engine"`) {
		t.Fatalf("no engine lines:\n%s", out)
	}
	for _, leak := range []string{"zebra", "quokka", "AKIA"} {
		if strings.Contains(out, leak) {
			t.Errorf("the log carries %q:\n%s", leak, out)
		}
	}
}
