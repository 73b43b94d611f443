package cli

import (
	"encoding/json"
	"io"
	"os"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/config"
)

// How the commands log. serve writes JSON lines on stderr at [logging]
// level: the form an MCP host's log, a container runtime and a log
// collector read. A person running call or check at a terminal reads
// stderr beside the answer, so there stderr gets short human lines
// (zerolog's console form), warnings and errors only, the egress's lines
// included. Whatever is not a terminal (a pipe, a file, a container's
// log) keeps JSON lines at the configured level.

// humanLevel is the least level logged in the human form.
const humanLevel = zerolog.WarnLevel

// envNoColor, set and not empty, turns the human form's colours off
// (https://no-color.org).
const envNoColor = "NO_COLOR"

// humanTime is the human form's timestamp.
const humanTime = "15:04:05"

// IsTerminal reports whether f is a terminal: a character device (as is
// /dev/null, where the log's form does not matter).
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// logOutput is where a command's log lines go.
type logOutput struct {
	// w receives rypsok's lines; egress, the lines of the egress rypsok
	// starts (JSON, one Write each).
	w, egress io.Writer
	// min is the least level written.
	min zerolog.Level
}

// outputFor returns the log output of a command: the human form for a
// person's command (call, check) when stderr is a terminal, else JSON
// lines at level.
func outputFor(st Streams, env Env, level zerolog.Level, person bool) logOutput {
	if !person || !st.Terminal {
		return logOutput{w: st.Stderr, egress: st.Stderr, min: level}
	}
	console := zerolog.ConsoleWriter{Out: st.Stderr, NoColor: env(envNoColor) != "", TimeFormat: humanTime}
	lvl := max(level, humanLevel)
	return logOutput{w: console, egress: humanLines{min: lvl, console: console, raw: st.Stderr}, min: lvl}
}

// logger returns rypsok's logger writing to o.
func (o logOutput) logger() zerolog.Logger {
	return zerolog.New(o.w).Level(o.min).With().Timestamp().Str("service", "rypsok").Logger()
}

// humanLines shows JSON log lines (the egress's, one per Write) in the
// human form, dropping those below min; a line that is not JSON passes
// as it is.
type humanLines struct {
	min     zerolog.Level
	console zerolog.ConsoleWriter
	raw     io.Writer
}

func (h humanLines) Write(p []byte) (int, error) {
	var line struct {
		Level string `json:"level"`
	}
	if json.Unmarshal(p, &line) != nil {
		return h.raw.Write(p)
	}
	if lvl, err := zerolog.ParseLevel(line.Level); err == nil && lvl < h.min {
		return len(p), nil
	}
	if _, err := h.console.Write(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EnvToken is the variable the tutorials keep the HTTP listener's bearer
// token in. A configuration reads a token from it only when it says so:
// [service] token_env = "RYPSOK_TOKEN".
const EnvToken = "RYPSOK_TOKEN"

// warnUnreadToken warns when EnvToken is set but no caller's token is
// read from it: whoever set it expects callers to need it, and they do
// not. The value is never logged.
func warnUnreadToken(log zerolog.Logger, cfg config.Config, env Env) {
	if env(EnvToken) == "" {
		return
	}
	for _, t := range cfg.Service.HTTP.Tokens {
		if t.Env == EnvToken {
			return
		}
	}
	log.Warn().Str("event", "token_unused").Str("variable", EnvToken).
		Msg(EnvToken + ` is set, but the configuration reads no token from it ([service] token_env = "` + EnvToken + `" would): callers are not asked for it`)
}
