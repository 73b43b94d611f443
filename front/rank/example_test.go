package rank_test

import (
	"fmt"

	"github.com/rypsok/rypsok/front/rank"
)

func ExampleKey() {
	for _, u := range []string{
		"https://www.Bücher.de/Neu/?utm_source=mail&b=2&a=1#top",
		"http://xn--bcher-kva.de:80/Neu?a=1&b=2",
	} {
		k, _ := rank.Key(u)
		fmt.Println(k)
	}
	// Output:
	// //xn--bcher-kva.de/Neu?a=1&b=2
	// //xn--bcher-kva.de/Neu?a=1&b=2
}

func ExampleStripTracking() {
	fmt.Println(rank.StripTracking("https://example.com/p?b=2&utm_source=x&a=%20#top"))
	fmt.Println(rank.StripTracking("https://example.com/s?q=a+b"))
	// Output:
	// https://example.com/p?b=2&a=%20#top
	// https://example.com/s?q=a+b
}

func ExampleFuse() {
	type result struct{ Title string }
	merged, dropped := rank.Fuse([]string{"wikipedia", "brave"}, nil, [][]rank.Observation[result]{
		{
			{Engine: "wikipedia", Rank: 1, URL: "http://example.org/a", Item: result{"A"}},
			{Engine: "wikipedia", Rank: 2, URL: "ftp://example.org/", Item: result{"F"}},
		},
		{
			{Engine: "brave", Rank: 1, URL: "https://example.org/b", Item: result{"B"}},
			{Engine: "brave", Rank: 2, URL: "https://www.example.org/a/?fbclid=x", Item: result{"A'"}},
		},
	})
	for _, m := range merged {
		fmt.Printf("%s %s %v %.5f\n", m.URL, m.Item.Title, m.Engines, m.Score)
	}
	fmt.Println(dropped)
	// Output:
	// https://www.example.org/a/ A [wikipedia brave] 0.03252
	// https://example.org/b B [brave] 0.01639
	// [{wikipedia url_invalid}]
}
