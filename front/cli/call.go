package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/rypsok/rypsok/front/app"
)

// callCmd runs one tool call through the same services as serve and
// prints the response object (or the error object) as JSON on stdout.
func callCmd(ctx context.Context, args []string, st Streams, env Env) int {
	var configPath string
	pos, code, done := flags(st, "call", callUsage, args, func(fs *flag.FlagSet) {
		fs.StringVar(&configPath, "config", "", "configuration file")
	})
	switch {
	case done:
		return code
	case len(pos) < 1 || len(pos) > 2:
		return usageError(st.Stderr, errors.New("call needs TOOL and optional 'JSON-ARGS'"))
	}
	raw := json.RawMessage("{}")
	if len(pos) == 2 {
		raw = json.RawMessage(pos[1])
	}
	r, err := start(configPath, st, env, false, true)
	if err != nil {
		printLines(st.Stderr, err)
		return ExitInvalid
	}
	defer r.close()
	resp, terr, err := r.services.Call(ctx, "cli", pos[0], raw)
	if errors.Is(err, app.ErrUnknownTool) {
		return usageError(st.Stderr, fmt.Errorf("unknown tool %q (served: %v)", pos[0], r.services.Tools()))
	}
	out := any(resp)
	if terr != nil {
		out = terr
	}
	enc := json.NewEncoder(st.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(out)
	if terr != nil {
		return ExitInvalid
	}
	return ExitOK
}
