//go:build live

package drivers_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/config"
)

// TestLiveDuckDuckGo asks DuckDuckGo's HTML endpoint through a real
// rypsok-egress, from a configuration that opts in to scraping. Like the
// engine it is opt-in: it runs only with RYPSOK_LIVE_SCRAPING=1. From a
// datacentre address DuckDuckGo often answers with its challenge, which
// fails the test as blocked: that says the address is challenged, not
// that the page changed.
func TestLiveDuckDuckGo(t *testing.T) {
	if os.Getenv("RYPSOK_LIVE_SCRAPING") != "1" {
		t.Skip("RYPSOK_LIVE_SCRAPING is not 1")
	}
	cfg, err := config.Parse([]byte("config_version = 1\n[scraping]\nenabled = true\n[engines.duckduckgo]\ntype = \"duckduckgo\"\n"), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	res := liveSearch(t, cfg, "duckduckgo", os.Getenv)
	for _, r := range res {
		if (strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://")) && !strings.Contains(r.URL, "duckduckgo.com/") && r.Title != "" && r.Decoded {
			return
		}
	}
	t.Errorf("no decoded, unwrapped http(s) result among %d results: %+v", len(res), res)
}
