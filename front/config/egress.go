package config

import (
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// egressOut is the schema of rypsok-egress's configuration file (see
// egress/config), as far as rypsok writes it.
type egressOut struct {
	ConfigVersion int `toml:"config_version"`
	Listen        struct {
		Socket string `toml:"socket"`
	} `toml:"listen"`
	DNS     *egressDNS                   `toml:"dns,omitempty"`
	Policy  egressPolicy                 `toml:"policy"`
	Logging egressLogging                `toml:"logging"`
	Engines map[string]egressEngineTable `toml:"engines,omitempty"`
}

type egressDNS struct {
	Servers []string `toml:"servers"`
}

type egressPolicy struct {
	AllowHTTP bool     `toml:"allow_http"`
	Allow     []string `toml:"allow,omitempty"`
	Deny      []string `toml:"deny,omitempty"`
	CAFile    string   `toml:"ca_file,omitempty"`
}

type egressLogging struct {
	Level string `toml:"level"`
}

type egressEngineTable struct {
	Endpoint   string   `toml:"endpoint"`
	Endpoints  []string `toml:"endpoints,omitempty"`
	PublicOnly bool     `toml:"public_only,omitempty"`
}

// EgressTOML renders the configuration file of the rypsok-egress that
// rypsok starts itself, listening on socket: the [egress] DNS servers
// (none: the egress reads /etc/resolv.conf), allow_http, allow and deny
// rules and CA file, the log level, and one [engines.<id>] per active
// engine. An engine's endpoints are its configured endpoint, or the
// type's own (Type.DefaultEndpoints for the search languages) with
// public_only = true. The allow rules are the operator's, as written: no
// rule is derived from an endpoint, since the egress admits an endpoint
// for its engine alone, and an allow rule would open its host and port
// to web_fetch too.
func (c Config) EgressTOML(socket string) ([]byte, error) {
	if socket == "" {
		return nil, errors.New("config: egress socket: empty path")
	}
	out := egressOut{
		ConfigVersion: Version,
		Policy: egressPolicy{
			AllowHTTP: c.Egress.AllowHTTP,
			Allow:     c.Egress.AllowRaw,
			Deny:      c.Egress.DenyRaw,
			CAFile:    c.Egress.CAFile,
		},
		Logging: egressLogging{Level: c.LogLevel.String()},
		Engines: c.egressEngines(),
	}
	out.Listen.Socket = socket
	if len(c.Egress.DNSServers) > 0 {
		out.DNS = &egressDNS{Servers: c.Egress.DNSServers}
	}
	data, err := toml.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("config: egress configuration: %w", err)
	}
	return data, nil
}

// egressEngines returns the [engines.<id>] tables of the active engines.
func (c Config) egressEngines() map[string]egressEngineTable {
	tables := map[string]egressEngineTable{}
	for _, e := range c.Engines {
		if e.State != EngineActive {
			continue
		}
		if e.Endpoint != nil {
			tables[e.ID] = egressEngineTable{Endpoint: e.EndpointRaw}
			continue
		}
		t, ok := LookupType(e.Type)
		urls := t.DefaultEndpoints(c.Search.Languages)
		if !ok || len(urls) == 0 {
			continue
		}
		tables[e.ID] = egressEngineTable{Endpoint: urls[0], Endpoints: urls[1:], PublicOnly: true}
	}
	return tables
}
