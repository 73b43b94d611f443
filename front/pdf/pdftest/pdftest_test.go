package pdftest

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"
)

// TestBombStream checks that a bomb inflates to exactly its size, its
// checksum right, from about a thousandth of it.
func TestBombStream(t *testing.T) {
	for _, n := range []int{2 << 20, 3 << 20, 64 << 20} {
		z := BombStream(n)
		r, err := zlib.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.Copy(io.Discard, r)
		if err != nil || got != int64(n) {
			t.Errorf("%d: inflated %d, %v", n, got, err)
		}
		if len(z) > n/500 {
			t.Errorf("%d: %d bytes of Flate, want about a thousandth", n, len(z))
		}
	}
}
