package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/fetch"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/shared/limits"
)

func noEnv(string) string { return "" }

// connect serves cfg over in-memory transports and returns a client
// session.
func connect(t *testing.T, cfg config.Config, structured bool) *mcp.ClientSession {
	t.Helper()
	return connectServer(t, New(Options{Services: app.New(app.Options{Config: cfg}), Version: "test", StructuredContent: structured, Caller: "test"}))
}

// connectServer serves srv over in-memory transports and returns a
// client session.
func connectServer(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestToolsListIsTheContract(t *testing.T) {
	cs := connect(t, config.Default(noEnv), true)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		ann := tool.Annotations
		if ann == nil || !ann.ReadOnlyHint || ann.DestructiveHint == nil || *ann.DestructiveHint || !ann.IdempotentHint || ann.OpenWorldHint == nil {
			t.Errorf("%s: annotations %+v", tool.Name, ann)
		} else if want := tool.Name != response.ToolEngineStatus; *ann.OpenWorldHint != want {
			t.Errorf("%s: openWorldHint %v, want %v", tool.Name, *ann.OpenWorldHint, want)
		}
		schema := tool.InputSchema.(map[string]any)
		if schema["type"] != "object" || schema["additionalProperties"] != false {
			t.Errorf("%s: input schema is not a closed flat object: %v", tool.Name, schema)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	if got := strings.Join(names, ","); got != "engine_status,web_search" {
		t.Fatalf("tools %s, want engine_status,web_search (web_fetch lands with its pipeline)", got)
	}
	search := res.Tools[1]
	if search.Description != descWebSearch {
		t.Errorf("description %q", search.Description)
	}
	props := search.InputSchema.(map[string]any)["properties"].(map[string]any)
	for _, p := range []string{"query", "category", "max_results", "time_range"} {
		if _, ok := props[p]; !ok {
			t.Errorf("web_search lacks %s", p)
		}
	}
	if _, ok := props["language"]; ok {
		t.Error("language listed with one configured language")
	}
	cats := props["category"].(map[string]any)["enum"].([]any)
	if len(cats) != 4 || cats[0] != "general" || cats[1] != "news" || cats[2] != "science" || cats[3] != "it" {
		t.Errorf("categories %v, want those of the active keyless engines (general, news of gdelt and hackernews, science, it) without brave", cats)
	}
}

// TestCategoriesFollowActiveEngines: without its keyless news engines
// and without Brave, news is not offered.
func TestCategoriesFollowActiveEngines(t *testing.T) {
	cfg := config.Default(noEnv)
	for i, e := range cfg.Engines {
		if e.ID == "gdelt" || e.ID == "hackernews" {
			cfg.Engines[i].State = config.EngineDisabled
		}
	}
	res, err := connect(t, cfg, true).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := res.Tools[1].InputSchema.(map[string]any)["properties"].(map[string]any)
	if cats := props["category"].(map[string]any)["enum"].([]any); len(cats) != 3 || cats[0] != "general" || cats[1] != "science" || cats[2] != "it" {
		t.Errorf("categories %v, want general, science, it: no active engine serves news", cats)
	}
}

func TestLanguageIsListedWithTwoLanguagesAndCategoriesFollowActiveEngines(t *testing.T) {
	cfg := config.Default(func(k string) string {
		if k == "BRAVE_API_KEY" {
			return "test-key"
		}
		return ""
	})
	cfg.Search.Languages = []string{"en", "ja"}
	cs := connect(t, cfg, true)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := res.Tools[1].InputSchema.(map[string]any)["properties"].(map[string]any)
	lang, ok := props["language"].(map[string]any)
	if !ok || len(lang["enum"].([]any)) != 2 {
		t.Fatalf("language %v, want enum en, ja", props["language"])
	}
	if cats := props["category"].(map[string]any)["enum"].([]any); len(cats) != 4 || cats[1] != "news" {
		t.Errorf("categories %v, want general, news, science, it with brave active", cats)
	}
}

func TestEngineStatusCanBeRemoved(t *testing.T) {
	cfg := config.Default(noEnv)
	cfg.Service.EngineStatus = false
	res, err := connect(t, cfg, true).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != response.ToolWebSearch {
		t.Fatalf("tools %v, want web_search only", res.Tools)
	}
}

func TestDefinitionsFitTheirBudgets(t *testing.T) {
	for _, langs := range [][]string{{"en"}, {"en", "ja", "de", "fr", "es", "zh-tw", "pt-br", "it"}} {
		cfg := config.Default(func(string) string { return "key" })
		cfg.Search.Languages = langs
		srv := New(Options{Services: app.New(app.Options{Config: cfg, Fetch: noFetch{}}), Version: "test", StructuredContent: true})
		res, err := connectServer(t, srv).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) != 3 {
			t.Fatalf("%d tools, want all three", len(res.Tools))
		}
		b, _ := json.Marshal(res)
		if n := utf8.RuneCount(b) + utf8.RuneCountInString(Instructions); n > limits.I1DefinitionChars {
			t.Errorf("%d languages: instructions + tools/list = %d characters, over LIM-I1 %d", len(langs), n, limits.I1DefinitionChars)
		}
		for _, tool := range res.Tools {
			if n := utf8.RuneCountInString(tool.Description); n > limits.I2ToolDescChars {
				t.Errorf("%s: description %d characters", tool.Name, n)
			}
			for name, p := range tool.InputSchema.(map[string]any)["properties"].(map[string]any) {
				if d, _ := p.(map[string]any)["description"].(string); utf8.RuneCountInString(d) > limits.I3ParamDescChars {
					t.Errorf("%s.%s: description too long", tool.Name, name)
				}
			}
		}
	}
}

func TestInstructionsAreAnnounced(t *testing.T) {
	cs := connect(t, config.Default(noEnv), true)
	if got := cs.InitializeResult().Instructions; got != Instructions {
		t.Fatalf("instructions %q", got)
	}
}

// call calls a tool and returns the result's text object and whether it
// was an error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var obj map[string]any
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", tool, len(res.Content))
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &obj); err != nil {
		t.Fatalf("%s: text is not JSON: %v", tool, err)
	}
	return res, obj
}

func TestInvalidParametersAreInvalidRequestErrors(t *testing.T) {
	cs := connect(t, config.Default(noEnv), true)
	long := strings.Repeat("é", limits.S1QueryMaxChars+1)
	for _, tc := range []struct {
		name  string
		args  any
		param string
		check func(detail map[string]any) bool
	}{
		{"no query", map[string]any{}, "query", nil},
		{"an empty query", map[string]any{"query": "  "}, "query", func(d map[string]any) bool { return d["min"] == 1.0 && d["max"] == 400.0 }},
		{"a query over LIM-S1", map[string]any{"query": long}, "query", func(d map[string]any) bool { return d["max"] == 400.0 }},
		{"a query that is a number", map[string]any{"query": 5}, "query", nil},
		{"an unknown category", map[string]any{"query": "q", "category": "images"}, "category", func(d map[string]any) bool { return len(d["allowed"].([]any)) == 4 }},
		{"max_results zero", map[string]any{"query": "q", "max_results": 0}, "max_results", func(d map[string]any) bool { return d["min"] == 1.0 && d["max"] == 20.0 }},
		{"max_results 21", map[string]any{"query": "q", "max_results": 21}, "max_results", nil},
		{"max_results with a fraction", map[string]any{"query": "q", "max_results": 2.5}, "max_results", nil},
		{"max_results as a string", map[string]any{"query": "q", "max_results": "5"}, "max_results", nil},
		{"an unknown time_range", map[string]any{"query": "q", "time_range": "hour"}, "time_range", func(d map[string]any) bool { return len(d["allowed"].([]any)) == 4 }},
		{"language with one configured language", map[string]any{"query": "q", "language": "en"}, "language", nil},
		{"an unknown parameter", map[string]any{"query": "q", "engines": "all"}, "engines", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, obj := call(t, cs, response.ToolWebSearch, tc.args)
			if !res.IsError {
				t.Fatalf("not an error: %v", obj)
			}
			e := obj["error"].(map[string]any)
			d := e["detail"].(map[string]any)
			if e["kind"] != "invalid_request" || d["parameter"] != tc.param {
				t.Fatalf("got %v, want invalid_request on %s", e, tc.param)
			}
			if tc.check != nil && !tc.check(d) {
				t.Errorf("detail %v", d)
			}
			if msg := e["message"].(string); utf8.RuneCountInString(msg) > limits.I4MessageChars || msg == "" {
				t.Errorf("message %q", msg)
			}
			sc, _ := json.Marshal(res.StructuredContent)
			if !strings.Contains(string(sc), `"invalid_request"`) {
				t.Errorf("structured content %s lacks the error object", sc)
			}
		})
	}
}

func TestAValidSearchWithoutEnginesIsUnavailableNoEngine(t *testing.T) {
	res, obj := call(t, connect(t, config.Default(noEnv), true), response.ToolWebSearch, map[string]any{"query": "golang"})
	e, _ := obj["error"].(map[string]any)
	if !res.IsError || e["kind"] != "unavailable" || e["detail"].(map[string]any)["reason"] != "no_engine" {
		t.Fatalf("got %v", obj)
	}
}

func TestEngineStatusReportsConfiguredEngines(t *testing.T) {
	res, obj := call(t, connect(t, config.Default(noEnv), true), response.ToolEngineStatus, map[string]any{})
	if res.IsError || obj["outcome"] != "ok" {
		t.Fatalf("got %v", obj)
	}
	b, _ := json.Marshal(obj["engines"])
	want := `[{"id":"wikipedia","latency_ms":null,"state":"closed"},{"id":"brave","latency_ms":null,"reason":"no_credential","state":"disabled"},` +
		`{"id":"stackexchange","latency_ms":null,"state":"closed"},{"id":"arxiv","latency_ms":null,"state":"closed"},{"id":"marginalia","latency_ms":null,"state":"closed"},` +
		`{"id":"gdelt","latency_ms":null,"state":"closed"},{"id":"hackernews","latency_ms":null,"state":"closed"}]`
	if string(b) != want {
		t.Fatalf("engines %s, want %s", b, want)
	}
}

// TestAnOutputSchemaOnlyWithStructuredContent reproduces issue 16's first
// hour: with structured_content = false the tools still declared an
// output schema, and the TypeScript SDK's client refused every successful
// result ("has an output schema but did not return structured content").
// A tool declares its output schema exactly when its results carry
// structuredContent; the text is there either way.
func TestAnOutputSchemaOnlyWithStructuredContent(t *testing.T) {
	for _, structured := range []bool{true, false} {
		t.Run(fmt.Sprintf("structured_content = %v", structured), func(t *testing.T) {
			cfg := config.Default(noEnv)
			srv := New(Options{Services: app.New(app.Options{Config: cfg, Fetch: noFetch{}}), Version: "test", StructuredContent: structured})
			cs := connectServer(t, srv)
			list, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Tools) != 3 {
				t.Fatalf("%d tools, want all three", len(list.Tools))
			}
			for _, tool := range list.Tools {
				if got := tool.OutputSchema != nil; got != structured {
					t.Errorf("%s: output schema declared %v, want %v", tool.Name, got, structured)
				}
			}
			res, obj := call(t, cs, response.ToolEngineStatus, nil)
			if got := res.StructuredContent != nil; got != structured || res.IsError || obj["outcome"] != "ok" {
				t.Fatalf("structured content %v (want %v), text %v", res.StructuredContent, structured, obj)
			}
		})
	}
}

// noFetch stands for a web_fetch pipeline, so that its definition is
// listed; it is never called.
type noFetch struct{}

func (noFetch) Fetch(context.Context, fetch.Request) (response.Fetch, *response.Error) {
	return response.Fetch{}, nil
}

// TestAfterFirstWrite: the hook runs once, after the first write is done.
func TestAfterFirstWrite(t *testing.T) {
	var out strings.Builder
	calls := 0
	w := &afterFirstWrite{w: &out, fn: func() {
		calls++
		if out.String() != "first\n" {
			t.Errorf("hook ran before the first write was done: %q", out.String())
		}
	}}
	for _, s := range []string{"first\n", "second\n", "third\n"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("hook ran %d times, want 1", calls)
	}
}
