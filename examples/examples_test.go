package examples

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	egressconfig "github.com/rypsok/rypsok/egress/config"
	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/fetch"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/search"
)

// fakeEnv is the environment the examples are parsed in: every variable
// is set, to a value distinct per name and long enough for a bearer token
// (config.MinTokenChars), so that token_env and api_key_env resolve.
func fakeEnv(name string) string {
	return "example-" + strings.ToLower(name) + "-0123456789abcdef"
}

// isEgressFile reports whether an example configuration is rypsok-egress's
// (its name starts with "egress") rather than rypsok's.
func isEgressFile(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "egress")
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestConfigExamplesParse parses every examples/config/*.toml with the
// parser that reads it in production: rypsok's (front/config.Parse), or
// rypsok-egress's (egress/config.Parse) for the files named egress*.toml.
// Each starts with a comment saying what it is for.
func TestConfigExamplesParse(t *testing.T) {
	files, err := filepath.Glob("config/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 8 {
		t.Fatalf("found %d configuration examples, want at least 8", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data := read(t, f)
			if !strings.HasPrefix(string(data), "#") {
				t.Errorf("%s does not start with a comment saying what it is for", f)
			}
			if isEgressFile(f) {
				if _, err := egressconfig.Parse(data); err != nil {
					t.Errorf("rypsok-egress refuses %s:\n%v", f, err)
				}
				return
			}
			if _, err := config.Parse(data, fakeEnv); err != nil {
				t.Errorf("rypsok refuses %s:\n%v", f, err)
			}
		})
	}
}

// TestSidecarExamplesAgree checks that egress-sidecar.toml is the egress
// sidecar.toml needs: the same socket, and for every active engine the
// endpoints rypsok would hand to an egress it started itself.
func TestSidecarExamplesAgree(t *testing.T) {
	front, err := config.Parse(read(t, "config/sidecar.toml"), fakeEnv)
	if err != nil {
		t.Fatal(err)
	}
	eg, err := egressconfig.Parse(read(t, "config/egress-sidecar.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if front.Egress.Socket == "" || front.Egress.Socket != eg.Socket {
		t.Errorf("sidecar.toml's [egress] socket is %q, egress-sidecar.toml's [listen] socket %q", front.Egress.Socket, eg.Socket)
	}
	rendered, err := front.EgressTOML(eg.Socket)
	if err != nil {
		t.Fatal(err)
	}
	want, err := egressconfig.Parse(rendered)
	if err != nil {
		t.Fatalf("rypsok renders an egress configuration its egress refuses: %v\n%s", err, rendered)
	}
	if !reflect.DeepEqual(eg.Policy.Engines, want.Policy.Engines) {
		t.Errorf("egress-sidecar.toml's engines differ from what rypsok would write for sidecar.toml:\n%s", rendered)
	}
}

// requestExample is what a request file's name promises: the tool, and
// for an invalid request the error kind and reason it is answered with.
type requestExample struct {
	file, tool   string
	kind         response.ErrorKind
	reason       response.Reason
	wantsFailure bool
}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// parseRequestName reads TOOL.SLUG[.KIND[.REASON]].json (examples/README.md).
func parseRequestName(name string) (requestExample, error) {
	base, ok := strings.CutSuffix(name, ".json")
	parts := strings.Split(base, ".")
	if !ok || len(parts) < 2 || len(parts) > 4 {
		return requestExample{}, fmt.Errorf("%s: want TOOL.SLUG[.KIND[.REASON]].json", name)
	}
	r := requestExample{file: name, tool: parts[0]}
	if !slices.Contains([]string{response.ToolWebSearch, response.ToolWebFetch, response.ToolEngineStatus}, r.tool) {
		return r, fmt.Errorf("%s: unknown tool %q", name, r.tool)
	}
	if !slugRE.MatchString(parts[1]) {
		return r, fmt.Errorf("%s: the slug %q is not lower-case words joined by '-'", name, parts[1])
	}
	if len(parts) >= 3 {
		r.wantsFailure = true
		r.kind = response.ErrorKind(parts[2])
		if !slices.Contains(response.ErrorKinds(), r.kind) {
			return r, fmt.Errorf("%s: unknown error kind %q", name, parts[2])
		}
	}
	if len(parts) == 4 {
		r.reason = response.Reason(parts[3])
		if !slices.Contains(response.ReasonsOf(r.kind), r.reason) {
			return r, fmt.Errorf("%s: %q is not a reason of %s", name, parts[3], r.kind)
		}
	}
	return r, nil
}

// requestServices are the services every request example runs through:
// the default configuration (robots.txt off, so that a valid fetch gets as
// far as the network), the real argument validation and privacy check of
// web_search with no engine, and the real web_fetch pipeline with an egress
// socket where nothing listens. Nothing leaves the machine.
func requestServices(t *testing.T) *app.Services {
	cfg := config.Default(nil)
	cfg.Fetch.RobotsTxt = false
	fetcher := fetch.New(fetch.Options{
		Config: cfg,
		Egress: outbound.Egress{Socket: filepath.Join(t.TempDir(), "nothing-listens.sock")},
	})
	t.Cleanup(fetcher.Close)
	return app.New(app.Options{
		Config: cfg,
		Search: search.New(search.Options{Secrets: cfg.Privacy.SecretDetection}),
		Fetch:  fetcher,
	})
}

// TestRequestExamples runs every examples/requests/*.json as the arguments
// of its tool through app.Services.Call. A valid example must pass
// validation and the policy (no invalid_request, no denied: with no engine
// and no egress it can only end unavailable); an invalid one must be
// answered with the kind, and the reason, its name gives. Every tool has
// at least one example of each.
func TestRequestExamples(t *testing.T) {
	files, err := filepath.Glob("requests/*.json")
	if err != nil {
		t.Fatal(err)
	}
	s := requestServices(t)
	seen := map[string]bool{}
	for _, f := range files {
		ex, err := parseRequestName(filepath.Base(f))
		if err != nil {
			t.Error(err)
			continue
		}
		seen[fmt.Sprint(ex.tool, ex.wantsFailure)] = true
		t.Run(strings.TrimSuffix(ex.file, ".json"), func(t *testing.T) {
			raw := read(t, f)
			var obj map[string]any
			if err := json.Unmarshal(raw, &obj); err != nil {
				t.Fatalf("not a JSON object: %v", err)
			}
			resp, terr, err := s.Call(context.Background(), "examples", ex.tool, raw)
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			switch {
			case !ex.wantsFailure && terr == nil:
				if _, err := json.Marshal(resp); err != nil {
					t.Fatal(err)
				}
			case !ex.wantsFailure:
				if k := terr.Body.Kind; k == response.KindInvalidRequest || k == response.KindDenied {
					t.Errorf("a valid example was answered %s %q: %s", k, terr.Body.Detail.Reason, terr.Body.Message)
				}
				if ex.tool == response.ToolEngineStatus {
					t.Errorf("engine_status failed: %v", terr)
				}
			case terr == nil:
				t.Errorf("answered %+v, want the error %s %s", resp, ex.kind, ex.reason)
			case terr.Body.Kind != ex.kind || (ex.reason != "" && terr.Body.Detail.Reason != ex.reason):
				t.Errorf("answered %s %q (%s), want %s %q", terr.Body.Kind, terr.Body.Detail.Reason, terr.Body.Message, ex.kind, ex.reason)
			}
		})
	}
	for _, tool := range []string{response.ToolWebSearch, response.ToolWebFetch, response.ToolEngineStatus} {
		if !seen[fmt.Sprint(tool, false)] || !seen[fmt.Sprint(tool, true)] {
			t.Errorf("%s needs at least one valid and one invalid request example", tool)
		}
	}
}

// TestExamplesREADMEListsEveryFile keeps examples/README.md's lists in
// step with the files.
func TestExamplesREADMEListsEveryFile(t *testing.T) {
	readme := string(read(t, "README.md"))
	for _, pattern := range []string{"config/*.toml", "requests/*.json"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if !strings.Contains(readme, "`"+filepath.Base(f)+"`") {
				t.Errorf("examples/README.md does not list `%s`", filepath.Base(f))
			}
		}
	}
}
