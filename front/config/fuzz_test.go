package config

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, and that a configuration it
// accepts renders an egress configuration and never prints a credential.
func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add(fmt.Appendf(nil, fullConfig, "/nonexistent/ca.pem", "/nonexistent/key", "/nonexistent/token", "/nonexistent/ci"))
	f.Add([]byte(minimal + "engines = { z = { type = \"wikipedia\", auth = { token = \"x\" } } }"))
	f.Add([]byte(minimal + "[engines.b]\ntype = \"brave\"\napi_key_env = \"K\"\n[[engines.b.x]]\n"))
	f.Add([]byte("[engines]\n'a'.\"b\".c = 1\n"))
	env := envOf(map[string]string{"BRAVE_API_KEY": "fuzz-credential", "K": "fuzz-credential"})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, env)
		if err != nil {
			return
		}
		if s := fmt.Sprintf("%+v", c); strings.Contains(s, "fuzz-credential") {
			t.Fatalf("the credential is printed: %s", s)
		}
		if _, err := c.EgressTOML(testSocket); err != nil {
			t.Fatalf("EgressTOML: %v", err)
		}
	})
}
