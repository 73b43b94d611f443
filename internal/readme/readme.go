// Package readme keeps generated sections of the documentation (the
// Markdown pages of docs/) in step with the code they describe. A section
// sits between "<!-- NAME:begin -->" and "<!-- NAME:end -->"; a test
// renders it from the code and compares, and with -update rewrites it. It
// is used by tests only.
package readme

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Check compares section name of the Markdown page at path with want.
// With update set, it rewrites the section instead.
func Check(t testing.TB, path, name, want string, update bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := fmt.Sprintf("<!-- %s:begin -->\n", name), fmt.Sprintf("<!-- %s:end -->", name)
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no section %q (markers %q and %q)", path, name, begin, end)
	}
	got := s[i+len(begin) : j]
	if got == want {
		return
	}
	if update {
		if err := os.WriteFile(path, []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("section %q of %s is out of date; run go test with -update.\ngot:\n%s\nwant:\n%s", name, path, got, want)
}
