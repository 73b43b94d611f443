package config

import (
	"errors"
	"fmt"

	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/shared/egressfile"
)

// EgressTOML renders the configuration file of the rypsok-egress that
// rypsok starts itself, listening on socket: the [egress] DNS servers
// (none: the egress reads /etc/resolv.conf), allow_http, allow and deny
// rules and CA file, the log level, and one [engines.<id>] per active
// engine. An engine's endpoints are its configured endpoint, or the
// type's own (its descriptor's DefaultEndpoints for the search languages) with
// public_only = true. The allow rules are the operator's, as written: no
// rule is derived from an endpoint, since the egress admits an endpoint
// for its engine alone, and an allow rule would open its host and port
// to web_fetch too.
func (c Config) EgressTOML(socket string) ([]byte, error) {
	if socket == "" {
		return nil, errors.New("config: egress socket: empty path")
	}
	out := egressfile.File{
		ConfigVersion: egressfile.Version,
		Listen:        egressfile.Listen{Socket: socket},
		DNS:           egressfile.DNS{Servers: c.Egress.DNSServers},
		Policy: egressfile.Policy{
			AllowHTTP: c.Egress.AllowHTTP,
			Allow:     c.Egress.Allow.Strings(),
			Deny:      c.Egress.Deny.Strings(),
			CAFile:    c.Egress.CAFile,
		},
		Logging: egressfile.Logging{Level: c.LogLevel.String()},
		Engines: c.egressEngines(),
	}
	data, err := out.Marshal()
	if err != nil {
		return nil, fmt.Errorf("config: egress configuration: %w", err)
	}
	return data, nil
}

// egressEngines returns the [engines.<id>] tables of the active engines.
func (c Config) egressEngines() map[string]egressfile.Engine {
	tables := map[string]egressfile.Engine{}
	for _, e := range c.Engines {
		if e.State != EngineActive {
			continue
		}
		if e.Endpoint != nil {
			tables[e.ID] = egressfile.Engine{Endpoint: e.EndpointURL()}
			continue
		}
		t, ok := drivers.Lookup(e.Type)
		urls := t.DefaultEndpoints(c.Search.Languages)
		if !ok || len(urls) == 0 {
			continue
		}
		tables[e.ID] = egressfile.Engine{Endpoint: urls[0], Endpoints: urls[1:], PublicOnly: true}
	}
	return tables
}
