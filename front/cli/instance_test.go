package cli

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/launcher"
)

// TestLocalEgressStartsOnce: an egress not started by close never starts,
// and calls then fail at once; one started is waited for and reported.
func TestLocalEgressStartsOnce(t *testing.T) {
	o := launcher.Options{Binary: filepath.Join(t.TempDir(), "no-such-egress"), Stderr: io.Discard, Log: zerolog.Nop()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	closed := newLocal(o)
	closed.close()
	if _, err := closed.ready(ctx); !errors.Is(err, errClosed) {
		t.Errorf("ready after close: %v, want errClosed", err)
	}

	// a call starts an egress nobody started
	if _, err := newLocal(o).ready(ctx); err == nil || errors.Is(err, errClosed) {
		t.Errorf("ready without start: %v, want the launcher's error", err)
	}

	started := newLocal(o)
	started.start()
	started.start() // once
	_, err := started.ready(ctx)
	if err == nil || errors.Is(err, errClosed) {
		t.Errorf("ready of a missing binary: %v, want the launcher's error", err)
	}
	started.close()
}
