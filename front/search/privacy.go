package search

import (
	"context"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/secrets"
)

// privacy is the secret check (docs/design: privacy) on the query, before
// anything
// leaves: refuse (denied, secret_in_query, with the kind and position of
// the first secret), mask (each secret replaced; credential_masked), warn
// (a warning in the log, the query goes on; warned is true) or off.
func (p *Pipeline) privacy(ctx context.Context, query string, n *notices) (_ string, warned bool, _ *response.Error) {
	if p.opts.Secrets == config.SecretOff {
		return query, false, nil
	}
	found := secrets.Find(query)
	if len(found) == 0 {
		return query, false, nil
	}
	switch p.opts.Secrets {
	case config.SecretMask:
		n.add(response.NoticeCredentialMasked, len(found))
		return secrets.Mask(query, found), false, nil
	case config.SecretWarn:
		p.logger(ctx).Warn().Str("event", "secret_in_query").Str("kind", string(found[0].Kind)).Int("count", len(found)).Send()
		return query, true, nil
	}
	return "", false, response.DeniedSecret(response.ReasonSecretInQuery, string(found[0].Kind), found[0].Position)
}
