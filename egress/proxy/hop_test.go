package proxy

import (
	"slices"
	"strings"
	"testing"
)

// TestHopConnReadsConnectionAsTheTransportDoes feeds response bytes to a
// hopConn in pieces of every size, as reads may split them.
func TestHopConnReadsConnectionAsTheTransportDoes(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		want         []string
	}{
		{"close and a name", "HTTP/1.1 200 OK\r\nConnection: close, X-Secret-Hop\r\nX-Secret-Hop: 1\r\n\r\nbody", []string{"close, X-Secret-Hop"}},
		{"two Connection headers in any case", "HTTP/1.1 200 OK\r\nconnection: a\r\nCONNECTION:  b , c \r\n\r\n", []string{"a", "b , c"}},
		{"line ends without carriage returns", "HTTP/1.1 200 OK\nConnection: close, X-A\n\nConnection: not-a-header", []string{"close, X-A"}},
		{"an interim response first", "HTTP/1.1 103 Early Hints\r\nConnection: X-Interim\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close, X-Final\r\n\r\n", []string{"close, X-Final"}},
		{"two interim responses", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: X-Last\r\n\r\n", []string{"X-Last"}},
		{"no Connection header", "HTTP/1.1 200 OK\r\nX-Secret-Hop: 1\r\n\r\n", nil},
		{"a Connection line in the body is no header", "HTTP/1.1 200 OK\r\nContent-Length: 22\r\n\r\nConnection: X-Body\r\n\r\n", nil},
		{"a block the transport cannot read", "HTTP/1.1 200 OK\r\n bad fold\r\nConnection: X-A\r\n\r\n", nil},
		{"a block never ended", "HTTP/1.1 200 OK\r\nConnection: X-A\r\n", nil},
		{"a block over the bound", "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", maxHeadBytes) + "\r\nConnection: X-A\r\n\r\n", nil},
	} {
		for _, size := range []int{1, 2, 3, 7, len(tc.stream)} {
			c := newHopConn(nil)
			for b := []byte(tc.stream); len(b) > 0; {
				n := min(size, len(b))
				c.note(b[:n])
				b = b[n:]
			}
			if got := c.connection(); !slices.Equal(got, tc.want) {
				t.Errorf("%s, read %d bytes at a time: got %q, want %q", tc.name, size, got, tc.want)
			}
		}
	}
}

// TestHopConnKeepsOnlyTheResponseItExpects: bytes before a request is
// given the connection are not a response, and each expect starts over.
func TestHopConnKeepsOnlyTheResponseItExpects(t *testing.T) {
	c := newHopConn(nil)
	c.note([]byte("HTTP/1.1 200 OK\r\nConnection: close, X-First\r\n\r\n"))
	c.note([]byte("HTTP/1.1 200 OK\r\nConnection: X-Unsolicited\r\n\r\n"))
	if got := c.connection(); !slices.Equal(got, []string{"close, X-First"}) {
		t.Errorf("after an unsolicited block: got %q, want the first response's", got)
	}
	c.expect()
	if got := c.connection(); got != nil {
		t.Errorf("after expect: got %q, want none until the next block", got)
	}
	c.note([]byte("HTTP/1.1 200 OK\r\nConnection: X-Second\r\n\r\n"))
	if got := c.connection(); !slices.Equal(got, []string{"X-Second"}) {
		t.Errorf("the next response: got %q, want X-Second", got)
	}
	var none *hopConn
	if got := none.connection(); got != nil {
		t.Errorf("a nil hopConn: got %q, want none", got)
	}
}
