package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/shared/policy"
)

const full = `
config_version = 1
[listen]
socket = "/run/rypsok/egress.sock"
group = "0"
[dns]
servers = ["127.0.0.53", "[::1]:5353", "10.0.0.2:53"]
[policy]
allow_http = true
allow = ["intranet.example.com", "10.1.2.3:8443", "192.168.0.0/16"]
deny = ["*.evil.test", "169.254.169.254"]
[upstream]
proxy = "http://proxy.corp:3128"
enforces_profile = true
[telemetry]
metrics_listen = "127.0.0.1:9466"
[logging]
level = "debug"
[engines.wikipedia]
endpoint = "https://en.wikipedia.org"
endpoints = ["https://ja.wikipedia.org"]
public_only = true
[engines.searxng]
endpoint = "http://127.0.0.1:8080/searx"
`

func TestParseReadsEveryKey(t *testing.T) {
	c, err := Parse([]byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.Socket != "/run/rypsok/egress.sock" || c.GID != 0 {
		t.Errorf("listen: got %q gid %d", c.Socket, c.GID)
	}
	if got := strings.Join(c.DNSServers, ","); got != "127.0.0.53:53,[::1]:5353,10.0.0.2:53" {
		t.Errorf("dns servers: got %s", got)
	}
	if !c.Policy.AllowHTTP || len(c.Policy.Allow) != 3 || len(c.Policy.Deny) != 2 {
		t.Errorf("policy: got %+v", c.Policy)
	}
	if c.Upstream == nil || c.Upstream.Host != "proxy.corp:3128" || !c.UpstreamAgent {
		t.Errorf("upstream: got %v %v", c.Upstream, c.UpstreamAgent)
	}
	if c.MetricsListen != "127.0.0.1:9466" || c.LogLevel != zerolog.DebugLevel {
		t.Errorf("telemetry/logging: got %q %v", c.MetricsListen, c.LogLevel)
	}
	if eps := c.Policy.Engines["wikipedia"]; len(eps) != 2 || !eps[0].PublicOnly || !eps[1].PublicOnly {
		t.Errorf("wikipedia endpoints: got %+v", eps)
	}
	if eps := c.Policy.Engines["searxng"]; len(eps) != 1 || eps[0].Scheme != "http" || eps[0].Port != 8080 || eps[0].PathPrefix != "/searx" {
		t.Errorf("searxng endpoint: got %+v", eps)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, toml, want string
	}{
		{"no config_version", ``, "config_version: missing"},
		{"another config_version", `config_version = 2`, "config_version: must be 1"},
		{"an unknown top-level key", "config_version = 1\nsecret = 1", "secret: unknown key"},
		{"an unknown key in a section", "config_version = 1\n[policy]\nallow_all = true", "policy.allow_all: unknown key"},
		{"an unknown key of an engine", "config_version = 1\n[engines.x]\nendpoint = \"https://x.test\"\napi_key = \"k\"", "engines.x.api_key: unknown key"},
		{"a malformed allow rule", "config_version = 1\n[policy]\nallow = [\"a..b\"]", "policy.allow[0]: rule \"a..b\""},
		{"a malformed deny rule", "config_version = 1\n[policy]\ndeny = [\"10.0.0.0/33\"]", "policy.deny[0]: rule \"10.0.0.0/33\": not a CIDR prefix"},
		{"a DNS server by name", "config_version = 1\n[dns]\nservers = [\"dns.google\"]", "dns.servers[0]"},
		{"an engine without endpoint", "config_version = 1\n[engines.x]\npublic_only = true", "engines.x.endpoint: required"},
		{"an engine endpoint with userinfo", "config_version = 1\n[engines.x]\nendpoint = \"https://u:p@x.test\"", "config:3: engines.x.endpoint: user info"},
		{"an engine endpoint of another scheme", "config_version = 1\n[engines.x]\nendpoint = \"ftp://x.test\"", "engines.x.endpoint: the scheme"},
		{"a bad second endpoint", "config_version = 1\n[engines.x]\nendpoint = \"https://x.test\"\nendpoints = [\"https://y.test\", \"https://z.test/?q\"]", "config:4: engines.x.endpoints[1]: a query"},
		{"an upper-case engine id", "config_version = 1\n[engines.X]\nendpoint = \"https://x.test\"", "engines.X"},
		{"an upstream proxy with credentials", "config_version = 1\n[upstream]\nproxy = \"http://u:p@proxy:3128\"", "upstream.proxy"},
		{"enforces_profile without a proxy", "config_version = 1\n[upstream]\nenforces_profile = true", "upstream.enforces_profile"},
		{"a metrics listener by name", "config_version = 1\n[telemetry]\nmetrics_listen = \"localhost:9466\"", "telemetry.metrics_listen"},
		{"an unknown log level", "config_version = 1\n[logging]\nlevel = \"verbose\"", "logging.level"},
		{"a missing CA file", "config_version = 1\n[policy]\nca_file = \"/nonexistent/ca.pem\"", "policy.ca_file"},
		{"a device as CA file (read, it would never end)", "config_version = 1\n[policy]\nca_file = \"/dev/zero\"", "policy.ca_file"},
		{"a string where a list belongs", "config_version = 1\n[policy]\nallow = \"x.test\"", "config:3: policy.allow: want an array of strings, got a string"},
		{"a group that does not exist", "config_version = 1\n[listen]\ngroup = \"no-such-group-rypsok\"", "config:3: listen.group: group: unknown group"},
		{"not TOML", "config_version = = 1", "config:1: not valid TOML at column 18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestLoadNamesEveryProblemWithItsLine: rypsok-egress's check once
// formatted its problems otherwise than rypsok's and stopped at the first
// bad list entry. Every problem is named, one line each, in rypsok's
// format: FILE:LINE: KEY: PROBLEM (did you mean X?).
func TestLoadNamesEveryProblemWithItsLine(t *testing.T) {
	doc := `config_version = 3
[listen]
socket = 7
[dns]
servers = ["10.0.0.2", "dns.google", 53]
[logging]
level = "loud"
[policy]
alow = ["x.test"]
deny = ["*.", "ok.test", "10.0.0.0/33"]
`
	path := filepath.Join(t.TempDir(), "egress.toml")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil {
		t.Fatal("want an error")
	}
	want := []string{
		"F:1: config_version: must be 1, got 3",
		"F:3: listen.socket: want a string, got an integer",
		"F:5: dns.servers[2]: want a string, got an integer",
		"F:7: logging.level: want debug, info, warn or error, got \"loud\"",
		"F:9: policy.alow: unknown key (did you mean policy.allow?)",
		`F:10: policy.deny[0]: rule "*.": ` + ruleProblem(t, "*."),
		`F:10: policy.deny[2]: rule "10.0.0.0/33": not a CIDR prefix`,
	}
	got := strings.Split(strings.ReplaceAll(err.Error(), path, "F"), "\n")
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// ruleProblem is shared/policy's problem with rule s.
func ruleProblem(t *testing.T, s string) string {
	t.Helper()
	_, err := policy.ParseRule(s)
	if err == nil {
		t.Fatalf("rule %q parses", s)
	}
	_, problem, _ := strings.Cut(err.Error(), fmt.Sprintf("%q: ", s))
	return problem
}

func TestCAFileAddsToTheSystemRoots(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, []byte(testCA), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Parse([]byte("config_version = 1\n[policy]\nca_file = \"" + path + "\""))
	if err != nil {
		t.Fatal(err)
	}
	if c.RootCAs == nil || c.CAFile != path {
		t.Fatalf("got roots %v file %q", c.RootCAs, c.CAFile)
	}
	if err := os.WriteFile(path, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse([]byte("config_version = 1\n[policy]\nca_file = \"" + path + "\"")); err == nil {
		t.Fatal("a file without a certificate: want an error")
	}
}

// testCA is net/http/httptest's test certificate.
const testCA = `-----BEGIN CERTIFICATE-----
MIIDOTCCAiGgAwIBAgIQSRJrEpBGFc7tNb1fb5pKFzANBgkqhkiG9w0BAQsFADAS
MRAwDgYDVQQKEwdBY21lIENvMCAXDTcwMDEwMTAwMDAwMFoYDzIwODQwMTI5MTYw
MDAwWjASMRAwDgYDVQQKEwdBY21lIENvMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A
MIIBCgKCAQEA6Gba5tHV1dAKouAaXO3/ebDUU4rvwCUg/CNaJ2PT5xLD4N1Vcb8r
bFSW2HXKq+MPfVdwIKR/1DczEoAGf/JWQTW7EgzlXrCd3rlajEX2D73faWJekD0U
aUgz5vtrTXZ90BQL7WvRICd7FlEZ6FPOcPlumiyNmzUqtwGhO+9ad1W5BqJaRI6P
YfHjYn0s5JiW7WJvK0rRHHe1fuW87kwA/Nj8ZOTMF4Qx3ZNMWTd3ItnKU6JeEkrQ
kuYWnc/cxVAMQG0tGN0cL+lMCtwFJ5cdffdzTDfj8ly5jjaYlB0UiUMJ2R9UvbBW
TAQHIwTuUz8k1o+WenmkgfxN9cM5SCT44QIDAQABo4GIMIGFMA4GA1UdDwEB/wQE
AwICpDATBgNVHSUEDDAKBggrBgEFBQcDATAPBgNVHRMBAf8EBTADAQH/MB0GA1Ud
DgQWBBStsdjh3/JCXXYlQryOrL4Sh7BW5TAuBgNVHREEJzAlggtleGFtcGxlLmNv
bYcEfwAAAYcQAAAAAAAAAAAAAAAAAAAAATANBgkqhkiG9w0BAQsFAAOCAQEAxWGI
5NhpF3nwwy/4yB4i/CwwSpLrWUa70NyhvprUBC50PxiXav1TeDzwzLx/o5HyNwsv
cxv3HdkLW59i/0SlJSrNnWdfZ19oTcS+6PtLoVyISgtyN6DpkKpdG1cOkW3Cy2P2
+tK/tKHRP1Y/Ra0RiDpOAmqn0gCOFGz8+lqDIor/T7MTpibL3IxqWfPrvfVRHL3B
grw/ZQTTIVjjh4JBSW3WyWgNo/ikC1lrVxzl4iPUGptxT36Cr7Zk2Bsg0XqwbOvK
5d+NTDREkSnUbie4GeutujmX3Dsx88UiV6UY/4lHJa6I5leHUNOHahRbpbWeOfs/
WkBKOclmOV2xlTVuPw==
-----END CERTIFICATE-----
`

// TestCheckRefusesWhatServingWould: `rypsok-egress check` once passed a
// configuration whose socket directory did not exist, and the egress then
// failed to start. Check names what serving would refuse, and only that:
// a directory it can create is fine, and checking creates nothing.
func TestCheckRefusesWhatServingWould(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	resolvConf := filepath.Join(dir, "resolv.conf")
	if err := os.WriteFile(resolvConf, []byte("nameserver 10.0.0.2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, socket, dns, resolvConf, want string
	}{
		{"an existing directory", dir + "/egress.sock", "", resolvConf, ""},
		{"a directory serving creates", dir + "/new/egress.sock", "", resolvConf, ""},
		{"DNS servers of the file, resolv.conf aside", dir + "/egress.sock", `servers = ["10.0.0.2"]`, "/nonexistent/resolv.conf", ""},
		{"a directory whose parent is missing", dir + "/no/such/egress.sock", "", resolvConf,
			"F:3: listen.socket: the socket's directory " + dir + "/no/such does not exist and cannot be created (only its last directory is created): stat " + dir + "/no: no such file or directory"},
		{"a directory that is a file", file + "/egress.sock", "", resolvConf,
			"F:3: listen.socket: the socket's directory " + file + " exists and is not a directory"},
		{"a directory that is a symbolic link", dir + "/link/egress.sock", "", resolvConf,
			"F:3: listen.socket: the socket's directory " + dir + "/link is a symbolic link: name the directory it points to"},
		{"a file at the socket's path", file, "", resolvConf,
			"F:3: listen.socket: " + file + " exists and is not a socket"},
		{"no DNS server anywhere", dir + "/egress.sock", "", "/nonexistent/resolv.conf",
			"F:4: dns.servers: none set, and open /nonexistent/resolv.conf: no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "egress.toml")
			doc := fmt.Sprintf("config_version = 1\n[listen]\nsocket = %q\n[dns]\n%s\n", tc.socket, tc.dns)
			if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := load(path, startable(tc.resolvConf))
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), path, "F")
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	if _, err := os.Lstat(dir + "/new"); !os.IsNotExist(err) {
		t.Errorf("checking created the socket's directory: %v", err)
	}
}
