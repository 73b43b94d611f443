package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/shared/limits"
)

const (
	stdioInit        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	stdioInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	stdioPing        = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
)

// answer is one JSON-RPC answer written by ServeStdio.
type answer struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// stdioOptions are the options of a server of the default configuration,
// as `rypsok serve` gives them.
func stdioOptions() Options {
	return Options{Services: app.New(app.Options{Config: config.Default(noEnv)}), Version: "test", Caller: "stdio"}
}

// serveStdio runs ServeStdio on input until its end and returns its
// answers, by id as written ("null" for those with id null; a batch's
// answers one by one), and its error.
func serveStdio(t *testing.T, input io.Reader) (map[string][]answer, error) {
	t.Helper()
	var out bytes.Buffer
	err := ServeStdio(context.Background(), stdioOptions(), input, &out, zerolog.Nop())
	answers := map[string][]answer{}
	for line := range strings.Lines(out.String()) {
		var batch []answer
		var one answer
		switch {
		case json.Unmarshal([]byte(line), &batch) == nil:
		case json.Unmarshal([]byte(line), &one) == nil:
			batch = []answer{one}
		default:
			t.Fatalf("an output line is not JSON: %.200q", line)
		}
		for _, a := range batch {
			answers[string(a.ID)] = append(answers[string(a.ID)], a)
		}
	}
	return answers, err
}

// TestAStdioLineItCannotServeIsAnsweredAndServingGoesOn reproduces the
// attack of a line that is not JSON, or JSON that is no JSON-RPC message,
// between valid requests: each such line is answered with id null
// (-32700 or -32600), the requests around it are answered, and ServeStdio
// ends without error at the end of input. Before, each ended the process
// with exit 1 (an empty or white-space line was skipped).
func TestAStdioLineItCannotServeIsAnsweredAndServingGoesOn(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		code int64  // of the answer with id null; 0: none
		id   string // an id the line's own answer carries, if any
	}{
		{"a word", "hello", -32700, ""},
		{"an object cut short", `{"jsonrpc":`, -32700, ""},
		{"a lone bracket", "]", -32700, ""},
		{"an empty line", "", -32700, ""},
		{"white space only", " \t ", -32700, ""},
		{"a NUL byte", "\x00", -32700, ""},
		{"a byte order mark before a request", "\ufeff" + `{"jsonrpc":"2.0","id":9,"method":"ping"}`, -32700, ""},
		{"two requests on one line", `{"jsonrpc":"2.0","id":9,"method":"ping"} {"jsonrpc":"2.0","id":10,"method":"ping"}`, -32700, ""},
		{"LIM-H2 bytes of garbage", strings.Repeat("x", limits.H2BodyBytes), -32700, ""},
		{"a JSON string one byte over LIM-H2", `"` + strings.Repeat("a", limits.H2BodyBytes-1) + `"`, -32700, ""},
		{"a number", "42", -32600, ""},
		{"an empty batch", "[]", -32600, ""},
		{"an object that is no message", `{"foo":1}`, -32600, ""},
		{"a string", `"ping"`, -32600, ""},
		{"an id that is an array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, ""},
		{"another JSON-RPC version", `{"jsonrpc":"1.0","id":9,"method":"ping"}`, -32600, ""},
		{"JSON nested deeper than the SDK reads", strings.Repeat("[", 1001) + strings.Repeat("]", 1001), -32600, ""},
		{"a request with white space after it", `{"jsonrpc":"2.0","id":9,"method":"ping"}` + " \t\r", 0, "9"},
		{"a request whose id is written 5.0", `{"jsonrpc":"2.0","id":5.0,"method":"ping"}`, 0, "5"},
		{"a batch after 2025-06-18's handshake", `[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, 0, "9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := strings.Join([]string{stdioInit, stdioInitialized, tc.line, stdioPing}, "\n") + "\n"
			answers, err := serveStdio(t, strings.NewReader(input))
			if err != nil {
				t.Fatalf("ServeStdio: %v", err)
			}
			for _, id := range []string{"1", "2", tc.id} {
				if got := answers[id]; id != "" && (len(got) != 1 || got[0].Error != nil) {
					t.Errorf("id %s: answers %+v, want one result", id, got)
				}
			}
			refusals := answers["null"]
			switch {
			case tc.code == 0 && len(refusals) != 0:
				t.Errorf("refused: %+v", refusals[0].Error)
			case tc.code != 0 && (len(refusals) != 1 || refusals[0].Error == nil || refusals[0].Error.Code != tc.code):
				t.Errorf("answers with id null: %+v, want one error %d", refusals, tc.code)
			case tc.code != 0 && len(refusals[0].Error.Message) > limits.I4MessageChars:
				t.Errorf("message of %d characters", len(refusals[0].Error.Message))
			}
		})
	}
}

// failingReader returns err once its lines are read.
type failingReader struct {
	lines io.Reader
	err   error
}

func (r *failingReader) Read(p []byte) (int, error) {
	n, err := r.lines.Read(p)
	if err == io.EOF {
		return n, r.err
	}
	return n, err
}

// TestAFailedReadStillEndsStdio: a read of the input that fails (not its
// end) is no line to answer: ServeStdio ends with the error.
func TestAFailedReadStillEndsStdio(t *testing.T) {
	broken := errors.New("input broken")
	_, err := serveStdio(t, &failingReader{lines: strings.NewReader(stdioInit + "\n" + stdioPing + "\n"), err: broken})
	if !errors.Is(err, broken) {
		t.Errorf("got %v, want %v", err, broken)
	}
}

// TestTheLedgerCountsWhatTheServerAnswers: a request read is pending until
// the answer to its id is written, the id compared as the SDK reads it.
func TestTheLedgerCountsWhatTheServerAnswers(t *testing.T) {
	req := func(id string) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, id) }
	res := func(id string) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id) }
	for _, tc := range []struct {
		name          string
		read, written []string
		pending       int
	}{
		{"a request answered", []string{req("1")}, []string{res("1")}, 0},
		{"a request not yet answered", []string{req("1")}, nil, 1},
		{"an id written 5.0, answered as 5", []string{req("5.0")}, []string{res("5")}, 0},
		{"a string id is not a number id", []string{req(`"5"`)}, []string{res("5")}, 1},
		{"an id read twice, in flight once", []string{req("1"), req("1")}, []string{res("1")}, 0},
		{"a notification", []string{stdioInitialized}, nil, 0},
		{"a batch is not counted", []string{"[" + req("1") + "]"}, nil, 0},
		{"an answer with id null strikes nothing", []string{req("1")}, []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`}, 1},
		{"two answers in one write", []string{req("1"), req("2")}, []string{res("1") + "\n" + res("2")}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLedger()
			for _, line := range tc.read {
				l.read([]byte(line))
			}
			w := l.writer(io.Discard)
			for _, line := range tc.written {
				w.Write([]byte(line + "\n"))
			}
			if got := len(l.pending); got != tc.pending {
				t.Errorf("pending %d, want %d", got, tc.pending)
			}
		})
	}
}

// TestACallBeforeInitializeIsAnInvalidRequest reproduces issue 16's first
// hour: tools/list before initialize was answered with an error of code 0,
// which JSON-RPC does not define. A call before initialize is now answered
// -32600 with its id (in its batch's answer, if it came in one); what the
// SDK serves before initialize (ping), the calls after an initialize
// request (even one not yet answered) and the calls of a handshake-less
// revision are served. The input stays open until every answer is in.
func TestACallBeforeInitializeIsAnInvalidRequest(t *testing.T) {
	const (
		list     = `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`
		call     = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"engine_status","arguments":{}}}`
		ping     = `{"jsonrpc":"2.0","id":7,"method":"ping"}`
		batch    = `[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`
		modern   = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		oldMeta  = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`
		listNext = `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`
	)
	for _, tc := range []struct {
		name  string
		lines []string
		want  map[string]int64 // by id: 0 for a result, else the error's code
	}{
		{"tools/list before initialize", []string{list}, map[string]int64{"7": -32600}},
		{"tools/call before initialize", []string{call}, map[string]int64{"7": -32600}},
		{"a version of a handshake revision in _meta", []string{oldMeta}, map[string]int64{"7": -32600}},
		{"the calls of a batch before initialize", []string{batch}, map[string]int64{"7": -32600, "8": 0}},
		{"ping before initialize", []string{ping}, map[string]int64{"7": 0}},
		{"tools/list of a handshake-less revision", []string{modern}, map[string]int64{"7": 0}},
		{"tools/list right after initialize, not waiting for its answer", []string{stdioInit, listNext}, map[string]int64{"1": 0, "8": 0}},
		{"tools/list before and after initialize", []string{list, stdioInit, stdioInitialized, listNext}, map[string]int64{"7": -32600, "1": 0, "8": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := connectPipe(t, New(stdioOptions()), func(in io.ReadCloser, out *answerLog) mcp.Transport {
				return &stdioTransport{in: in, out: &lineWriter{w: out}}
			})
			s.send(t, tc.lines...)
			for id, code := range tc.want {
				got := s.out.await(t, id)
				switch {
				case code == 0 && got.Error != nil:
					t.Errorf("id %s: error %+v, want a result", id, *got.Error)
				case code != 0 && (got.Error == nil || got.Error.Code != code):
					t.Errorf("id %s: answer %+v, want error %d", id, got, code)
				case code != 0 && got.Error.Message != msgNotInitialized:
					t.Errorf("id %s: message %q", id, got.Error.Message)
				}
			}
			s.end(t, "the session did not end at end of input")
			if n := s.out.count(); n != len(tc.want) {
				t.Errorf("%d answers, want %d", n, len(tc.want))
			}
		})
	}
}
