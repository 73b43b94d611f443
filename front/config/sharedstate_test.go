package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestSharedState(t *testing.T) {
	env := envOf(map[string]string{"REDIS_PASSWORD": "pw-from-env", "BLANK": " "})
	tests := []struct {
		name, toml string
		want       SharedState
		problem    string // the field of the one problem; "" for none
	}{
		{"absent: in process", "", SharedState{Prefix: "rypsok"}, ""},
		{"redis", `url = "redis://redis.rypsok.svc:6379/0"`, SharedState{URL: "redis://redis.rypsok.svc:6379/0", Prefix: "rypsok"}, ""},
		{"rediss, no db", `url = "rediss://r.example:6380"`, SharedState{URL: "rediss://r.example:6380", Prefix: "rypsok"}, ""},
		{"password in the URL", `url = "redis://:pw@r:6379/2"`, SharedState{URL: "redis://:pw@r:6379/2", Prefix: "rypsok"}, ""},
		{"password_env and prefix", "url = \"redis://r:6379\"\npassword_env = \"REDIS_PASSWORD\"\nprefix = \"team-a.prod\"",
			SharedState{URL: "redis://r:6379", Password: "pw-from-env", Prefix: "team-a.prod"}, ""},
		{"not redis", `url = "http://r:6379"`, SharedState{}, "shared_state.url"},
		{"no port", `url = "redis://r"`, SharedState{}, "shared_state.url"},
		{"a query", `url = "redis://r:6379/0?read_timeout=60s"`, SharedState{}, "shared_state.url"},
		{"db out of range", `url = "redis://r:6379/16"`, SharedState{}, "shared_state.url"},
		{"password_env blank", "url = \"redis://r:6379\"\npassword_env = \"BLANK\"", SharedState{}, "shared_state.password_env"},
		{"password_env unset", "url = \"redis://r:6379\"\npassword_env = \"NOPE\"", SharedState{}, "shared_state.password_env"},
		{"password_env without url", `password_env = "REDIS_PASSWORD"`, SharedState{}, "shared_state.password_env"},
		{"bad prefix", "url = \"redis://r:6379\"\nprefix = \"a*\"", SharedState{}, "shared_state.prefix"},
	}
	for _, tt := range tests {
		c, err := Parse([]byte("config_version = 1\n[shared_state]\n"+tt.toml+"\n"), env)
		if tt.problem == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			} else if c.SharedState != tt.want {
				t.Errorf("%s: %#v, want %#v", tt.name, c.SharedState, tt.want)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tt.problem {
			t.Errorf("%s: %v, want a problem of %s", tt.name, err, tt.problem)
		}
		if err != nil && (strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "://r")) {
			t.Errorf("%s: the problem quotes the URL or password: %v", tt.name, err)
		}
	}
}

func TestSharedStatePrintsNoSecret(t *testing.T) {
	c := Config{SharedState: SharedState{URL: "redis://:url-pw@r:6379", Password: "env-pw", Prefix: "p"}}
	for _, s := range []string{fmt.Sprintf("%v", c), fmt.Sprintf("%+v", c), c.SharedState.String()} {
		if strings.Contains(s, "url-pw") || strings.Contains(s, "env-pw") || strings.Contains(s, "redis://") {
			t.Errorf("printed: %s", s)
		}
	}
}
