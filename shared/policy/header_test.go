package policy

import (
	"testing"

	"github.com/rypsok/rypsok/shared/contract"
)

func TestCheckHeader(t *testing.T) {
	p := New(Config{})
	const (
		agentP  = contract.ProfileAgent
		engineP = contract.ProfileEngine
	)
	tests := []struct {
		name    string
		profile contract.Profile
		header  string
		want    HeaderAction
	}{
		{"the agent drops Accept-Encoding", agentP, "Accept-Encoding", HeaderDrop},
		{"the agent drops Connection", agentP, "Connection", HeaderDrop},
		{"the agent drops Proxy-Connection", agentP, "Proxy-Connection", HeaderDrop},
		{"the agent drops Keep-Alive", agentP, "Keep-Alive", HeaderDrop},
		{"the agent drops TE in any case", agentP, "TE", HeaderDrop},
		{"the agent drops Trailer", agentP, "Trailer", HeaderDrop},
		{"the agent drops Transfer-Encoding", agentP, "transfer-encoding", HeaderDrop},
		{"the agent drops Proxy-Authorization", agentP, "Proxy-Authorization", HeaderDrop},
		{"the agent drops Content-Length", agentP, "Content-Length", HeaderDrop},
		{"the agent drops a contract header", agentP, "Rypsok-Profile", HeaderDrop},
		{"the agent drops a lower-case contract header", agentP, "rypsok-engine", HeaderDrop},
		{"the agent keeps User-Agent", agentP, "User-Agent", HeaderKeep},
		{"the agent keeps Accept", agentP, "accept", HeaderKeep},
		{"the agent keeps Accept-Language", agentP, "Accept-Language", HeaderKeep},
		{"the agent keeps If-None-Match", agentP, "If-None-Match", HeaderKeep},
		{"the agent keeps If-Modified-Since", agentP, "IF-MODIFIED-SINCE", HeaderKeep},
		{"the agent refuses Cookie", agentP, "Cookie", HeaderRefuse},
		{"the agent refuses Authorization", agentP, "Authorization", HeaderRefuse},
		{"the agent refuses Upgrade", agentP, "Upgrade", HeaderRefuse},
		{"the agent refuses a Host override", agentP, "Host", HeaderRefuse},
		{"the agent refuses an X- header", agentP, "X-Api-Key", HeaderRefuse},
		{"the agent refuses Range", agentP, "Range", HeaderRefuse},
		{"the agent refuses Accept-Charset, a near name", agentP, "Accept-Charset", HeaderRefuse},
		{"no profile is the agent", "", "Cookie", HeaderRefuse},
		{"the agent refuses the empty name", agentP, "", HeaderRefuse},
		{"the agent refuses a name with a space", agentP, "User Agent", HeaderRefuse},
		{"the agent refuses a name with a colon", agentP, "Accept:", HeaderRefuse},

		{"an engine drops Accept-Encoding", engineP, "Accept-Encoding", HeaderDrop},
		{"an engine drops Proxy-Authorization", engineP, "proxy-authorization", HeaderDrop},
		{"an engine drops Content-Length", engineP, "Content-Length", HeaderDrop},
		{"an engine drops a contract header", engineP, "Rypsok-Engine", HeaderDrop},
		{"an engine keeps its key header", engineP, "X-Subscription-Token", HeaderKeep},
		{"an engine keeps Authorization", engineP, "Authorization", HeaderKeep},
		{"an engine keeps Content-Type", engineP, "Content-Type", HeaderKeep},
		{"an engine keeps User-Agent", engineP, "User-Agent", HeaderKeep},
		{"an engine keeps X-Forwarded, a near name", engineP, "X-Forwarded", HeaderKeep},
		{"an engine refuses Upgrade", engineP, "Upgrade", HeaderRefuse},
		{"an engine refuses Cookie", engineP, "cookie", HeaderRefuse},
		{"an engine refuses Host", engineP, "Host", HeaderRefuse},
		{"an engine refuses Forwarded", engineP, "Forwarded", HeaderRefuse},
		{"an engine refuses X-Forwarded-For", engineP, "X-Forwarded-For", HeaderRefuse},
		{"an engine refuses X-Forwarded-Host", engineP, "x-forwarded-host", HeaderRefuse},
		{"an engine refuses any Proxy- header", engineP, "Proxy-Foo", HeaderRefuse},
		{"an engine refuses a name that is not a token", engineP, "X-Key\r\nHost", HeaderRefuse},
		{"an engine refuses the empty name", engineP, "", HeaderRefuse},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.CheckHeader(tc.profile, tc.header); got != tc.want {
				t.Errorf("CheckHeader(%q, %q) = %v, want %v", tc.profile, tc.header, got, tc.want)
			}
		})
	}
}

func TestHeaderActionString(t *testing.T) {
	for a, want := range map[HeaderAction]string{HeaderKeep: "keep", HeaderDrop: "drop", HeaderRefuse: "refuse", HeaderAction(9): "unknown"} {
		if got := a.String(); got != want {
			t.Errorf("HeaderAction(%d).String() = %q, want %q", int(a), got, want)
		}
	}
}
