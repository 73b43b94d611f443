package launcher

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// readyMark is what the egress's "ready" log line contains: it is written
// once the socket listens.
var readyMark = []byte(`"event":"ready"`)

// maxLine bounds a buffered line of the egress's standard error; a longer
// line is forwarded in pieces of this size.
const maxLine = 64 << 10

// lastLineMax bounds the last stderr line kept for error messages.
const lastLineMax = 200

// forwardStderr copies r to w one line at a time, calls ready the first
// time a line carries the egress's ready event, and returns the last
// non-empty line (for error messages) when r ends or fails.
func forwardStderr(r io.Reader, w io.Writer, ready func(via string)) (last string) {
	br := bufio.NewReaderSize(r, maxLine)
	seen := false
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if !seen && bytes.Contains(line, readyMark) {
				seen = true
				ready("stderr")
			}
			if t := bytes.TrimSpace(line); len(t) > 0 {
				last = string(t[:min(len(t), lastLineMax)])
			}
			w.Write(line)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return last
		}
	}
}

// Readiness polling: the fallback when the ready line is not logged (an
// egress whose log level is above info).
const (
	pollFirst   = 2 * time.Millisecond  // first wait, doubled after each miss
	pollMax     = 50 * time.Millisecond // longest wait between two polls
	pollTimeout = time.Second           // bound of one poll
)

// pollHealthz asks the egress's /healthz with growing waits until it
// answers 200, then calls ready; it returns then, or when ctx ends.
func pollHealthz(ctx context.Context, socket string, ready func(via string)) {
	wait := pollFirst
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if healthz(ctx, socket) == nil {
			ready("healthz")
			return
		}
		wait = min(2*wait, pollMax)
		timer.Reset(wait)
	}
}

// healthz sends one origin-form GET /healthz on socket and reports
// whether it was answered 200.
func healthz(ctx context.Context, socket string) error {
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	conn, err := new(net.Dialer).DialContext(ctx, "unix", socket)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: egress\r\nConnection: close\r\n\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthz: status %d", resp.StatusCode)
	}
	return nil
}
