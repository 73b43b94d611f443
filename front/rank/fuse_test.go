package rank

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

// item is the opaque T of the tests: it names its observation.
type item struct{ Title string }

// ob builds an observation whose item names engine, rank and URL.
func ob(engine string, rank int, url string) Observation[item] {
	return Observation[item]{Engine: engine, Rank: rank, URL: url, Item: item{fmt.Sprintf("%s#%d", engine, rank)}}
}

// lists groups observations by engine, as the pipeline hands them over.
func lists(obs ...Observation[item]) [][]Observation[item] {
	var out [][]Observation[item]
	index := map[string]int{}
	for _, o := range obs {
		i, ok := index[o.Engine]
		if !ok {
			i = len(out)
			index[o.Engine] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], o)
	}
	return out
}

// row is the part of a Merged the order tests compare.
type row struct {
	URL      string
	Title    string
	Engines  string
	Score    float64
	BestRank int
}

func rows(merged []Merged[item]) []row {
	out := make([]row, len(merged))
	for i, m := range merged {
		out[i] = row{m.URL, m.Item.Title, strings.Join(m.Engines, ","), m.Score, m.BestRank}
	}
	return out
}

// rowsEqual compares rows, scores within float rounding: the table writes
// them as constants, which Go computes exactly.
func rowsEqual(got, want []row) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.Abs(g.Score-w.Score) > 1e-15 {
			return false
		}
		g.Score = w.Score
		if g != w {
			return false
		}
	}
	return true
}

func TestFuse(t *testing.T) {
	tests := []struct {
		name    string
		engines []string
		weights map[string]float64
		obs     []Observation[item]
		want    []row
	}{
		{
			name:    "one engine keeps its order, each result scored 1/(60+rank)",
			engines: []string{"a"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/1"), ob("a", 2, "https://x.com/2"), ob("a", 3, "https://x.com/3")},
			want: []row{
				{"https://x.com/1", "a#1", "a", 1.0 / 61, 1},
				{"https://x.com/2", "a#2", "a", 1.0 / 62, 2},
				{"https://x.com/3", "a#3", "a", 1.0 / 63, 3},
			},
		},
		{
			name:    "two engines at rank 1 score 2/61",
			engines: []string{"a", "b"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/p"), ob("b", 1, "https://x.com/p")},
			want:    []row{{"https://x.com/p", "a#1", "a,b", 2.0 / 61, 1}},
		},
		{
			name:    "a result two engines agree on beats one engine's first",
			engines: []string{"a", "b"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/solo"), ob("a", 2, "https://x.com/both"), ob("b", 3, "https://x.com/both")},
			want: []row{
				{"https://x.com/both", "a#2", "a,b", 1.0/62 + 1.0/63, 2},
				{"https://x.com/solo", "a#1", "a", 1.0 / 61, 1},
			},
		},
		{
			name:    "a weight multiplies an engine's share",
			engines: []string{"a", "b"},
			weights: map[string]float64{"b": 2.5},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/a"), ob("b", 1, "https://x.com/b")},
			want: []row{
				{"https://x.com/b", "b#1", "b", 2.5 / 61, 1},
				{"https://x.com/a", "a#1", "a", 1.0 / 61, 1},
			},
		},
		{
			name:    "a weight below 1 can put the preferred engine's first result second",
			engines: []string{"a", "b"},
			weights: map[string]float64{"a": 0.5},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/a"), ob("b", 2, "https://x.com/b")},
			want: []row{
				{"https://x.com/b", "b#2", "b", 1.0 / 62, 2},
				{"https://x.com/a", "a#1", "a", 0.5 / 61, 1},
			},
		},
		{
			name:    "a weight that is not above 0 or not finite counts as 1",
			engines: []string{"a", "b"},
			weights: map[string]float64{"a": 0, "b": -3},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/a"), ob("b", 2, "https://x.com/b")},
			want: []row{
				{"https://x.com/a", "a#1", "a", 1.0 / 61, 1},
				{"https://x.com/b", "b#2", "b", 1.0 / 62, 2},
			},
		},
		{
			name:    "an equal score goes to the better best rank, before engine preference",
			engines: []string{"b", "a"},
			weights: map[string]float64{"b": 2},
			obs:     []Observation[item]{ob("b", 62, "https://x.com/b"), ob("a", 1, "https://x.com/a")},
			want: []row{
				{"https://x.com/a", "a#1", "a", 1.0 / 61, 1},
				{"https://x.com/b", "b#62", "b", 2.0 / 122, 62},
			},
		},
		{
			name:    "an equal score and best rank go to the preferred engine, before the key",
			engines: []string{"b", "a"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/a"), ob("b", 1, "https://x.com/z")},
			want: []row{
				{"https://x.com/z", "b#1", "b", 1.0 / 61, 1},
				{"https://x.com/a", "a#1", "a", 1.0 / 61, 1},
			},
		},
		{
			name:    "an equal score, best rank and engine go to the smaller key",
			engines: []string{"a"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/z"), ob("a", 1, "https://www.x.com/m"), ob("a", 1, "http://x.com/a")},
			want: []row{
				{"http://x.com/a", "a#1", "a", 1.0 / 61, 1},
				{"https://www.x.com/m", "a#1", "a", 1.0 / 61, 1},
				{"https://x.com/z", "a#1", "a", 1.0 / 61, 1},
			},
		},
		{
			name:    "http and https merge and the https URL is shown, with the best observation's item",
			engines: []string{"a", "b"},
			obs:     []Observation[item]{ob("a", 1, "http://x.com/p"), ob("b", 4, "https://x.com/p")},
			want:    []row{{"https://x.com/p", "a#1", "a,b", 1.0/61 + 1.0/64, 1}},
		},
		{
			name:    "the best-ranked https URL is shown",
			engines: []string{"a", "b", "c"},
			obs:     []Observation[item]{ob("a", 1, "http://x.com/p"), ob("b", 5, "https://x.com/p?utm_source=b"), ob("c", 3, "https://www.x.com/p/")},
			want:    []row{{"https://www.x.com/p/", "a#1", "a,b,c", 1.0/61 + 1.0/65 + 1.0/63, 1}},
		},
		{
			name:    "an https best observation shows its own URL",
			engines: []string{"a", "b"},
			obs:     []Observation[item]{ob("a", 2, "http://x.com/p"), ob("b", 1, "https://www.x.com/p")},
			want:    []row{{"https://www.x.com/p", "b#1", "a,b", 1.0/62 + 1.0/61, 1}},
		},
		{
			name:    "an http best observation with no https twin shows http",
			engines: []string{"a", "b"},
			obs:     []Observation[item]{ob("a", 1, "http://x.com/p"), ob("b", 2, "http://www.x.com/p/")},
			want:    []row{{"http://x.com/p", "a#1", "a,b", 1.0/61 + 1.0/62, 1}},
		},
		{
			name:    "the shown URL loses its tracking parameters and keeps the rest",
			engines: []string{"a"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/p?b=2&utm_source=s&a=%20#f")},
			want:    []row{{"https://x.com/p?b=2&a=%20#f", "a#1", "a", 1.0 / 61, 1}},
		},
		{
			name:    "a best-rank tie between observations goes to the preferred engine",
			engines: []string{"b", "a"},
			obs:     []Observation[item]{ob("a", 1, "https://x.com/p"), ob("b", 1, "https://www.x.com/p")},
			want:    []row{{"https://www.x.com/p", "b#1", "b,a", 2.0 / 61, 1}},
		},
		{
			name:    "engines are listed in preference order, not in the order they were seen",
			engines: []string{"c", "a", "b"},
			obs:     []Observation[item]{ob("a", 2, "https://x.com/p"), ob("b", 1, "https://x.com/p"), ob("c", 3, "https://x.com/p")},
			want:    []row{{"https://x.com/p", "b#1", "c,a,b", 1.0/63 + 1.0/62 + 1.0/61, 1}},
		},
		{
			name:    "an engine that lists one resource twice counts once, with its best rank",
			engines: []string{"a"},
			obs:     []Observation[item]{ob("a", 4, "https://x.com/p?utm_source=x"), ob("a", 2, "https://x.com/p")},
			want:    []row{{"https://x.com/p", "a#2", "a", 1.0 / 62, 2}},
		},
		{
			name:    "an engine missing from the preference order comes after the listed ones, by name",
			engines: []string{"a"},
			obs:     []Observation[item]{ob("z", 1, "https://x.com/p"), ob("m", 1, "https://x.com/p"), ob("a", 1, "https://x.com/q"), ob("z", 1, "https://x.com/q")},
			want: []row{
				{"https://x.com/q", "a#1", "a,z", 2.0 / 61, 1},
				{"https://x.com/p", "m#1", "m,z", 2.0 / 61, 1},
			},
		},
		{
			name:    "a rank below 1 counts as 1",
			engines: []string{"a"},
			obs:     []Observation[item]{ob("a", 0, "https://x.com/p")},
			want:    []row{{"https://x.com/p", "a#0", "a", 1.0 / 61, 1}},
		},
		{
			name:    "no observation gives no result",
			engines: []string{"a"},
			want:    []row{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, dropped := Fuse(tt.engines, tt.weights, lists(tt.obs...))
			if len(dropped) != 0 {
				t.Errorf("dropped = %v; want none", dropped)
			}
			if got := rows(merged); !rowsEqual(got, tt.want) {
				t.Errorf("got\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

func TestFuseScoreIsExact(t *testing.T) {
	merged, _ := Fuse([]string{"a", "b"}, nil, lists(ob("a", 1, "https://x.com/"), ob("b", 1, "http://x.com")))
	if len(merged) != 1 || merged[0].Score != 2.0/61 {
		t.Fatalf("got %+v; want one result scored 2/61 exactly", merged)
	}
}

func TestFuseDrops(t *testing.T) {
	pad := func(n int) string { // an https URL of n characters
		return "https://x.com/" + strings.Repeat("a", n-len("https://x.com/"))
	}
	padRunes := func(n int) string { // n characters, 3 bytes each after the prefix
		return "https://x.com/" + strings.Repeat("é", n-len("https://x.com/"))
	}
	tests := []struct {
		name    string
		url     string
		reason  response.Reason
		mergedN int
	}{
		{"a URL of LIM-F9 characters is kept", pad(limits.F9URLChars), "", 1},
		{"a URL one character over LIM-F9 is dropped as too long", pad(limits.F9URLChars + 1), response.ReasonURLTooLong, 0},
		{"LIM-F9 counts characters, not bytes", padRunes(limits.F9URLChars), "", 1},
		{"a URL of LIM-F9+1 multi-byte characters is too long", padRunes(limits.F9URLChars + 1), response.ReasonURLTooLong, 0},
		{"a too-long URL that is also invalid is too long", "ftp://" + pad(limits.F9URLChars), response.ReasonURLTooLong, 0},
		{"ftp is invalid", "ftp://x.com/", response.ReasonURLInvalid, 0},
		{"a relative URL is invalid", "/x", response.ReasonURLInvalid, 0},
		{"a key is no engine URL", "//x.com/", response.ReasonURLInvalid, 0},
		{"userinfo is invalid", "https://u:p@x.com/", response.ReasonURLInvalid, 0},
		{"a space is invalid", "https://x.com/a b", response.ReasonURLInvalid, 0},
		{"the empty URL is invalid", "", response.ReasonURLInvalid, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, dropped := Fuse([]string{"a"}, nil, lists(ob("a", 1, tt.url)))
			if len(merged) != tt.mergedN {
				t.Fatalf("merged %d results; want %d", len(merged), tt.mergedN)
			}
			var want []Dropped
			if tt.reason != "" {
				want = []Dropped{{"a", tt.reason}}
			}
			if !reflect.DeepEqual(dropped, want) {
				t.Fatalf("dropped = %v; want %v", dropped, want)
			}
		})
	}
}

func TestFuseDroppedOrder(t *testing.T) {
	merged, dropped := Fuse([]string{"b", "a"}, nil, lists(
		ob("a", 1, "ftp://x"), ob("a", 2, "https://x.com/"+strings.Repeat("a", limits.F9URLChars)),
		ob("z", 1, "bad"), ob("b", 3, "bad"), ob("b", 1, "https://x.com/ok"), ob("a", 3, "also bad"),
	))
	want := []Dropped{
		{"b", response.ReasonURLInvalid},
		{"a", response.ReasonURLInvalid}, {"a", response.ReasonURLInvalid}, {"a", response.ReasonURLTooLong},
		{"z", response.ReasonURLInvalid},
	}
	if !reflect.DeepEqual(dropped, want) {
		t.Fatalf("dropped = %v; want %v", dropped, want)
	}
	if len(merged) != 1 || merged[0].URL != "https://x.com/ok" {
		t.Fatalf("merged = %+v; want the one valid URL", merged)
	}
}

// corpus is a search answer of five engines with overlapping results,
// variants of one URL, duplicates within an engine and bad URLs.
func corpus() [][]Observation[item] {
	engines := []string{"wikipedia", "brave", "mojeek", "searxng", "marginalia"}
	urls := []string{
		"https://example.com/a", "http://example.com/a", "https://www.example.com/a/", "https://example.com/a?utm_source=x",
		"https://example.org/", "https://example.org", "http://example.org/?fbclid=1",
		"https://bücher.de/x", "https://xn--bcher-kva.de/x/", "https://en.wikipedia.org/wiki/Go",
		"https://news.example.net/2026/01/story?id=7&page=1", "https://news.example.net/2026/01/story?page=1&id=7",
		"https://blog.example.io/post", "https://blog.example.io/post#comments", "https://docs.example.dev/guide/../api",
		"https://docs.example.dev/api", "ftp://example.com/", "https://user@example.com/", "https://a.example/",
		"https://b.example/", "https://c.example/", "https://d.example/", "https://e.example/",
	}
	r := rand.New(rand.NewPCG(1, 2))
	var out [][]Observation[item]
	for _, e := range engines {
		var list []Observation[item]
		for rank := 1; rank <= limits.S3ResultsPerEngine; rank++ {
			u := urls[r.IntN(len(urls))]
			list = append(list, Observation[item]{Engine: e, Rank: rank, URL: u, Item: item{fmt.Sprintf("%s %d %s", e, rank, u)}})
		}
		out = append(out, list)
	}
	return out
}

var corpusEngines = []string{"brave", "wikipedia", "mojeek", "searxng", "marginalia"}

func fuseJSON(t testing.TB, obs [][]Observation[item]) string {
	t.Helper()
	merged, dropped := Fuse(corpusEngines, map[string]float64{"brave": 1.5, "mojeek": 0.75}, obs)
	b, err := json.Marshal(struct {
		Merged  []Merged[item]
		Dropped []Dropped
	}{merged, dropped})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFusePermutationInvariant shuffles the observations within and across
// the engines' slices, many times with a fixed seed, and wants
// byte-identical output (I8).
func TestFusePermutationInvariant(t *testing.T) {
	obs := corpus()
	want := fuseJSON(t, obs)
	if again := fuseJSON(t, corpus()); again != want {
		t.Fatal("identical input gave different output")
	}
	var flat []Observation[item]
	for _, list := range obs {
		flat = append(flat, list...)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 500 {
		r.Shuffle(len(flat), func(i, j int) { flat[i], flat[j] = flat[j], flat[i] })
		var shuffled [][]Observation[item]
		for rest := flat; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			shuffled = append(shuffled, append([]Observation[item](nil), rest[:n]...))
			rest = rest[n:]
		}
		if got := fuseJSON(t, shuffled); got != want {
			t.Fatalf("permutation %d gave\n%s\nwant\n%s", i, got, want)
		}
	}
}

func TestFuseCorpusShape(t *testing.T) {
	merged, dropped := Fuse(corpusEngines, nil, corpus())
	seen := map[string]bool{}
	total := len(dropped)
	for i, m := range merged {
		if seen[m.Key] {
			t.Errorf("key %q appears twice", m.Key)
		}
		seen[m.Key] = true
		if k, err := Key(m.URL); err != nil || k != m.Key {
			t.Errorf("the shown URL %q has key %q, %v; want %q", m.URL, k, err, m.Key)
		}
		if i > 0 && merged[i-1].Score < m.Score {
			t.Errorf("result %d scores more than result %d", i, i-1)
		}
		total += len(m.Engines)
	}
	if total == 0 || len(merged) == 0 {
		t.Fatal("the corpus merged to nothing")
	}
}

// BenchmarkFuse fuses five engines of ten results each.
func BenchmarkFuse(b *testing.B) {
	var obs [][]Observation[item]
	for e := range 5 {
		var list []Observation[item]
		for rank := 1; rank <= 10; rank++ {
			// Half of each list is shared with the other engines.
			u := fmt.Sprintf("https://www.site%d.example.com/path/to/page-%d?id=%d&utm_source=x", rank%5, rank, rank)
			if rank > 5 {
				u = fmt.Sprintf("https://engine%d.example.org/r/%d", e, rank)
			}
			list = append(list, Observation[item]{Engine: fmt.Sprint("e", e), Rank: rank, URL: u})
		}
		obs = append(obs, list)
	}
	engines := []string{"e0", "e1", "e2", "e3", "e4"}
	b.ReportAllocs()
	for b.Loop() {
		Fuse(engines, nil, obs)
	}
}
