package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/shared/policy"
)

// ddgEngine is a configuration table of one DuckDuckGo engine.
const ddgEngine = "[engines.ddg]\ntype = \"duckduckgo\"\n"

// TestScrapingTypes checks REQ-ENG-013 on every scraping type of the
// table: never in the default set, refused without [scraping] enabled =
// true (the FieldError names engines.<id>.type), accepted with it.
func TestScrapingTypes(t *testing.T) {
	var scraping []string
	for _, name := range drivers.Types() {
		if ty, _ := drivers.Lookup(name); ty.Scraping {
			scraping = append(scraping, name)
		}
	}
	if !slices.Contains(scraping, "duckduckgo") {
		t.Fatalf("scraping types %q, want duckduckgo among them", scraping)
	}
	for _, d := range defaultEngines {
		if slices.Contains(scraping, d.typ) {
			t.Errorf("default engine %s is of the scraping type %s", d.id, d.typ)
		}
	}
	for _, e := range Default(envOf(map[string]string{"BRAVE_API_KEY": "k"})).Engines {
		if slices.Contains(scraping, e.Type) {
			t.Errorf("the zero configuration has the scraping engine %s", e.ID)
		}
	}
	for _, name := range scraping {
		t.Run(name, func(t *testing.T) {
			table := "[engines.s]\ntype = \"" + name + "\"\n"
			for _, off := range []string{"", "[scraping]\nenabled = false\n"} {
				_, err := Parse([]byte(minimal+off+table), noEnv)
				if fes := fieldErrors(err); len(fes) != 1 || !hasField(err, "engines.s.type", "[scraping] enabled = true") {
					t.Errorf("with %q: got %v, want one FieldError of engines.s.type", off, err)
				}
			}
			c, err := Parse([]byte(minimal+"[scraping]\nenabled = true\n"+table), noEnv)
			if err != nil {
				t.Fatalf("with [scraping] enabled = true: %v", err)
			}
			if len(c.Engines) != 1 || c.Engines[0].State != EngineActive {
				t.Errorf("engines %+v, want one active", c.Engines)
			}
		})
	}
}

// TestScrapingNeverImplied checks that [scraping] enabled = true alone
// adds no engine: the engines of a file without [engines.*] tables stay
// the default set.
func TestScrapingNeverImplied(t *testing.T) {
	c, err := Parse([]byte(minimal+"[scraping]\nenabled = true\n"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(c.Engines), ids(Default(noEnv).Engines); !slices.Equal(got, want) {
		t.Errorf("got %q, want the default engines %q", got, want)
	}
}

// TestDuckDuckGoEngine checks an engine of the scraping type duckduckgo:
// keyless, general, its egress endpoint the HTML endpoint's host, public
// addresses only; refused without [scraping] enabled = true.
func TestDuckDuckGoEngine(t *testing.T) {
	c, err := Parse([]byte(minimal+"[scraping]\nenabled = true\n"+ddgEngine), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Engines[0]
	if e.State != EngineActive || e.Credential != "" || e.Endpoint != nil || !slices.Equal(e.Categories, []string{"general"}) {
		t.Errorf("got %+v, want an active keyless general engine at the type's endpoint", e)
	}
	got, _ := egressOf(t, c)
	checkEgressConfig(t, got, c, map[string][]policy.Endpoint{"ddg": {public("https://html.duckduckgo.com")}})

	_, err = Parse([]byte(minimal+ddgEngine), noEnv)
	if !hasField(err, "engines.ddg.type", "scraping driver") || !strings.Contains(err.Error(), "duckduckgo") {
		t.Errorf("without [scraping]: got %v", err)
	}
}
