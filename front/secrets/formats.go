package secrets

// One matcher per format. A matcher is called with the text and the
// position of a byte that can start its format; it returns the end of the
// credential and its kind, or -1. Each states the format, how a match is
// confirmed, and where the format is described. Unless said otherwise a
// credential starts a word and ends one (startsWord, endsWord): the bytes
// around it are not token bytes [A-Za-z0-9_-].

import (
	"slices"
	"strings"
)

const none = Kind("")

// matchAWS finds AWS access key IDs: a four-letter prefix naming the kind
// of key, AKIA (long-term IAM key), ASIA (temporary STS key), ABIA (STS
// service bearer token) or ACCA (context-specific credential), then 16
// characters of the RFC 4648 base32 alphabet [A-Z2-7], 20 in all.
//
// Confirmation: structure (prefix, alphabet, length, boundaries,
// plausible). The format has no checksum; newer keys encode the account
// ID, older ones do not, so it cannot confirm. AWS's documented example
// key AKIAIOSFODNN7EXAMPLE has the format and is reported.
//
// Sources: AWS IAM User Guide, "IAM identifiers", unique ID prefixes
// (docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html);
// gitleaks rule aws-access-token (cmd/generate/config/rules/aws.go:
// "current AWS tokens cannot contain [0,1,8,9]").
func matchAWS(t string, i int) (int, Kind) {
	if len(t)-i < 20 || !startsWord(t, i) {
		return -1, none
	}
	switch t[i : i+4] {
	case "AKIA", "ASIA", "ABIA", "ACCA":
	default:
		return -1, none
	}
	body := t[i+4 : i+20]
	if !b32.all(body) || !endsWord(t, i+20) || !plausible(body) {
		return -1, none
	}
	return i + 20, KindAWSAccessKeyID
}

// matchGoogle finds Google API keys: "AIza" and 35 characters of
// [A-Za-z0-9_-], 39 in all.
//
// Confirmation: structure (prefix, alphabet, exact length, plausible).
//
// Sources: Google Cloud, "Manage API keys" (cloud.google.com/docs/
// authentication/api-keys); gitleaks rule gcp-api-key
// (rules/gcp.go: AIza[\w-]{35}).
func matchGoogle(t string, i int) (int, Kind) {
	if !startsWord(t, i) || !hasPrefixAt(t, i, "AIza") {
		return -1, none
	}
	j := i + 4
	e := word.upTo(t, j, 35)
	if e-j != 35 || !plausible(t[j:e]) {
		return -1, none
	}
	return e, KindGoogleAPIKey
}

// matchGitHub finds GitHub tokens.
//
// Classic tokens (personal ghp_, OAuth gho_, user-to-server ghu_,
// server-to-server ghs_, refresh ghr_): the prefix, 30 random characters of
// [A-Za-z0-9] and 6 characters of checksum, 40 in all; refresh tokens are
// also issued with 70 random characters (80 in all). The checksum is the
// CRC-32 (IEEE) of the random characters, without the prefix, in base62
// with the alphabet 0-9A-Za-z, zero-padded to 6. Confirmation: the
// checksum.
//
// Stateless server-to-server tokens (rolled out from April 2026):
// "ghs_", the app ID in digits, "_" and a JWT. Confirmation: the JWT's
// structure (see matchJWT).
//
// Fine-grained personal access tokens: see matchGitHubFineGrained.
//
// Sources: GitHub blog, "Behind GitHub's new authentication token formats"
// (2021-04-05: prefixes, "a 32 bit checksum in the last 6 digits", CRC32,
// Base62, "leading zeros for padding"); GitHub Docs, "About authentication
// to GitHub", GitHub's token formats; the base62 alphabet and the
// entropy-only input as in therootcompany/base62-token.js and
// Samsung/CredSweeper filters/value_github_check.py, and checked against
// tokens of each of the five prefixes published by mistake in public code;
// GitHub changelog 2026-04-24, "Notice about upcoming new
// format for GitHub App installation tokens" (ghs_APPID_JWT); the 76-char
// refresh body from mongodb/kingfisher rules/github.yml.
func matchGitHub(t string, i int) (int, Kind) {
	if !startsWord(t, i) {
		return -1, none
	}
	if hasPrefixAt(t, i, "github_pat_") {
		return matchGitHubFineGrained(t, i)
	}
	if len(t)-i < 4 || t[i+1] != 'h' || t[i+3] != '_' || strings.IndexByte("pousr", t[i+2]) < 0 {
		return -1, none
	}
	j := i + 4
	if t[i+2] == 's' {
		if e := statelessGitHubEnd(t, j); e > 0 {
			return e, KindGitHubToken
		}
	}
	e := alnum.upTo(t, j, 76)
	n := e - j
	if (n != 36 && (n != 76 || t[i+2] != 'r')) || !endsWord(t, e) || !base62CRCOK(t[j:e]) {
		return -1, none
	}
	return e, KindGitHubToken
}

// statelessGitHubEnd returns the end of "APPID_JWT" at j, or -1.
func statelessGitHubEnd(t string, j int) int {
	d := digit.run(t, j)
	if d == j || d >= len(t) || t[d] != '_' {
		return -1
	}
	return jwtEnd(t, d+1)
}

// matchGitHubFineGrained finds GitHub fine-grained personal access tokens:
// "github_pat_", 22 characters of [A-Za-z0-9], "_", 59 characters of
// [A-Za-z0-9], 93 in all. Of the 59, characters 44 to 51 are a checksum:
// the first 8 characters of the base32 (RFC 4648) encoding of the SHA-256
// of everything before them, prefix included.
//
// Confirmation: the checksum. GitHub does not document it; it was found by
// the authors of mongodb/kingfisher (pull request 342, rules/github.yml,
// "sha256_b32") and holds for each of the seven tokens published by
// mistake in public code that were checked while writing this.
//
// Sources: GitHub blog, "Introducing fine-grained personal access tokens"
// (2022-10-18); GitHub Docs, "About authentication to GitHub"; the above.
func matchGitHubFineGrained(t string, i int) (int, Kind) {
	j := i + len("github_pat_")
	a := alnum.upTo(t, j, 22)
	if a-j != 22 || a >= len(t) || t[a] != '_' {
		return -1, none
	}
	b := alnum.upTo(t, a+1, 59)
	if b-(a+1) != 59 || !endsWord(t, b) {
		return -1, none
	}
	if !fineGrainedOK(t[i:a+1+43], t[a+1+43:a+1+51]) {
		return -1, none
	}
	return b, KindGitHubFineGrainedToken
}

// matchNPM finds npm access tokens: "npm_" and 36 characters of
// [A-Za-z0-9], the last 6 a checksum computed as GitHub's (CRC-32 of the
// 30 random characters, base62, zero-padded).
//
// Confirmation: the checksum.
//
// Sources: GitHub blog, "Announcing npm's new access token format"
// (2021-09-23: "the same format of GitHub authentication tokens", "CRC32
// checksum, which is encoded in our Base62 implementation"); checked
// against a token published by mistake in public code.
func matchNPM(t string, i int) (int, Kind) {
	if !startsWord(t, i) || !hasPrefixAt(t, i, "npm_") {
		return -1, none
	}
	j := i + 4
	e := alnum.upTo(t, j, 36)
	if e-j != 36 || !endsWord(t, e) || !base62CRCOK(t[j:e]) {
		return -1, none
	}
	return e, KindNPMToken
}

// gitlabPrefixes are GitLab's token prefixes, and the legacy (not
// routable) body each has: its length in [0-9A-Za-z_-] unless the body
// function says otherwise.
var gitlabPrefixes = []struct {
	prefix string
	length int
	body   func(string) bool // nil: length bytes of [0-9A-Za-z_-]
}{
	{"glpat-", 20, nil},   // personal, project and group access tokens
	{"gldt-", 20, nil},    // deploy tokens
	{"glrt-", 20, nil},    // runner authentication tokens
	{"glft-", 20, nil},    // feed tokens
	{"glsoat-", 20, nil},  // SCIM tokens
	{"glffct-", 20, nil},  // feature flags client tokens
	{"glimt-", 25, nil},   // incoming mail tokens
	{"glagent-", 50, nil}, // agent for Kubernetes tokens
	{"gloas-", 64, nil},   // OAuth application secrets
	{"glptt-", 40, hexDigit.all},
	{"glcbt-", 0, jobTokenBody}, // CI/CD job tokens
	{"GR1348941", 20, nil},      // runner registration tokens (deprecated)
}

// jobTokenBody reports whether b is the body of a legacy CI/CD job token:
// 1 to 5 characters of [0-9A-Za-z], "_", 20 of [0-9A-Za-z_-].
func jobTokenBody(b string) bool {
	u := strings.IndexByte(b, '_')
	return u >= 1 && u <= 5 && alnum.all(b[:u]) && len(b)-u-1 == 20
}

// matchGitLab finds GitLab tokens, by prefix (see gitlabPrefixes).
//
// Routable tokens (GitLab 17.x and later): prefix, a base64url payload of
// 27 to 300 characters, ".", optionally a 2-character base36 version and
// ".", then 2 base36 characters giving the payload's length and 7 giving
// the CRC-32 (IEEE) of everything before them, prefix included, in
// zero-padded lower-case base36. Runner tokens put "t1_" (type) between
// prefix and payload. Confirmation: the length holder equals the
// payload's length and the CRC-32 matches.
//
// Legacy tokens: prefix and a fixed-length body (gitlabPrefixes).
// Confirmation: structure (length, alphabet, plausible). A CI/CD job token
// that is a JWT after "glcbt-" is confirmed as a JWT.
//
// Sources: GitLab Docs, "GitLab token overview", token prefixes
// (docs.gitlab.com/security/tokens/); gitlabhq lib/authn/token_field/
// generator/routable_token.rb and spec/support/matchers/
// token_authenticatable_matchers.rb (payload, version, length holder,
// Zlib.crc32 over the token without its last 7 characters, base36);
// gitleaks rules/gitlab.go; betterleaks pull request 83 (both routable
// shapes).
func matchGitLab(t string, i int) (int, Kind) {
	if !startsWord(t, i) || !(hasPrefixAt(t, i, "gl") || hasPrefixAt(t, i, "GR")) {
		return -1, none
	}
	for _, p := range gitlabPrefixes {
		if !hasPrefixAt(t, i, p.prefix) {
			continue
		}
		j := i + len(p.prefix)
		run := word.upTo(t, j, 310) // the longest routable payload
		if e := routableEnd(t, i, j, run, p.prefix == "glrt-"); e > 0 {
			return e, KindGitLabToken
		}
		if p.prefix == "glcbt-" {
			if e := jwtEnd(t, j); e > 0 {
				return e, KindGitLabToken
			}
		}
		e := min(run, j+65) // the longest legacy body is 64
		b := t[j:e]
		ok := len(b) == p.length
		if p.body != nil {
			ok = p.body(b) && (p.length == 0 || len(b) == p.length)
		}
		if ok && plausible(b) {
			return e, KindGitLabToken
		}
		return -1, none
	}
	return -1, none
}

// routableEnd returns the end of a routable GitLab token that starts at i,
// whose prefix ends at j and whose payload could end at b (word.upTo, to
// 310), or -1.
func routableEnd(t string, i, j, b int, runner bool) int {
	if b-j < 27 || b-j > 310 || b >= len(t) || t[b] != '.' {
		return -1
	}
	k := b + 1
	// With a version: "vv.LLccccccc".
	if e := k + 12; e <= len(t) && b36.all(t[k:k+2]) && t[k+2] == '.' && b36.all(t[k+3:e]) && endsWord(t, e) {
		if routableOK(t, i, j, b, t[k+3:k+5], e, runner) {
			return e
		}
	}
	// Without: "LLccccccc".
	if e := k + 9; e <= len(t) && b36.all(t[k:e]) && endsWord(t, e) {
		if routableOK(t, i, j, b, t[k:k+2], e, runner) {
			return e
		}
	}
	return -1
}

// routableOK checks a routable token t[i:end] whose payload (after the
// runner type, if any) ends at b: the length holder and the CRC.
func routableOK(t string, i, j, b int, holder string, end int, runner bool) bool {
	n, _ := parseBase36(holder)
	body := b - j
	switch {
	case n == uint64(body):
	case runner && n+3 == uint64(body) && t[j] == 't' && digit.has(t[j+1]) && t[j+2] == '_':
	default:
		return false
	}
	if n < 27 {
		return false
	}
	sum, ok := parseBase36(t[end-7 : end])
	return ok && sum == uint64(crc32IEEE(t[i:end-7]))
}

// A seg is one segment of a dashed or slashed credential: its alphabet and
// length range, or a fixed text.
type seg struct {
	c        *class
	min, max int
	text     string // when set, the segment is exactly this
}

var (
	slackID     = seg{c: digit, min: 6, max: 14} // a numeric Slack ID
	slackDigit  = seg{c: digit, min: 1, max: 1}  // a one-digit version
	slackTeam   = seg{c: newClass("A-Z", "0-9"), min: 7, max: 13}
	slackSecret = func(c *class, min, max int) seg { return seg{c: c, min: min, max: max} }
)

// segmentsEnd returns the end of the segments of shape, separated by sep,
// starting at j, and the last segment; or -1. Each segment is the longest
// run of its alphabet there.
func segmentsEnd(t string, j int, sep byte, shape ...seg) (int, string) {
	last := ""
	for n, sh := range shape {
		if n > 0 {
			if j >= len(t) || t[j] != sep {
				return -1, ""
			}
			j++
		}
		var e int
		if sh.text != "" {
			if !hasPrefixAt(t, j, sh.text) {
				return -1, ""
			}
			e = j + len(sh.text)
		} else {
			e = sh.c.upTo(t, j, sh.max)
			if e-j < sh.min || e-j > sh.max {
				return -1, ""
			}
		}
		last, j = t[j:e], e
	}
	return j, last
}

// slackShapes are the shapes of Slack tokens after their five-byte type
// ("xoxb-"...), tried in order.
var slackShapes = map[string][][]seg{
	// Bot tokens: team ID, bot user ID, secret; and the legacy shape.
	"xoxb-": {
		{slackID, slackID, slackSecret(alnum, 24, 34)},
		{slackID, slackSecret(alnum, 18, 26)},
	},
	// User tokens: team, user and token IDs, secret.
	"xoxp-": {{slackID, slackID, slackID, slackSecret(alnum, 28, 34)}},
	// Configuration refresh tokens, and user tokens in their xoxe- form.
	"xoxe-": {
		{slackDigit, slackSecret(alnum, 146, 146)},
		{slackID, slackID, slackID, slackSecret(alnum, 28, 34)},
	},
	// Legacy user and workspace tokens.
	"xoxo-": {{slackID, slackID, slackID, slackSecret(hexDigit, 10, 64)}},
	"xoxs-": {{slackID, slackID, slackID, slackSecret(hexDigit, 10, 64)}},
	"xoxa-": {{slackDigit, slackID, slackID, slackID, slackSecret(alnum, 10, 64)}},
	"xoxr-": {{slackDigit, slackID, slackID, slackID, slackSecret(alnum, 10, 64)}},
	// App-level tokens: version, app ID, a numeric ID, 64 hex digits.
	"xapp-": {{slackDigit, seg{c: newClass("A-Z", "0-9"), min: 9, max: 12}, seg{c: digit, min: 10, max: 14}, slackSecret(newClass("0-9", "a-f"), 64, 64)}},
}

// configShape is the shape of a configuration access token after
// "xoxe.xoxb-" or "xoxe.xoxp-".
var configShape = []seg{slackDigit, slackSecret(alnum, 163, 166)}

// matchSlackToken finds Slack tokens: "xox" and a letter for the token
// type (b bot, p user, e configuration, a, r, o and s legacy) or "xapp",
// then dash-separated segments: numeric IDs, then a random secret
// (slackShapes); and configuration access tokens, "xoxe.xoxb-" or
// "xoxe.xoxp-", a digit and a 163- to 166-character secret.
//
// Confirmation: structure (the numeric segments, the secret's alphabet
// and length range, plausible).
//
// Sources: Slack API docs, "Token types" (api.slack.com/authentication/
// token-types) and "Configuration tokens" (api.slack.com/authentication/
// config-tokens); gitleaks rules/slack.go, with its collected examples.
func matchSlackToken(t string, i int) (int, Kind) {
	if !startsWord(t, i) || len(t)-i < 10 {
		return -1, none
	}
	typ := t[i : i+5]
	if typ == "xoxe." && (hasPrefixAt(t, i+5, "xoxb-") || hasPrefixAt(t, i+5, "xoxp-")) {
		if e, last := segmentsEnd(t, i+10, '-', configShape...); e > 0 && endsWord(t, e) && plausible(last) {
			return e, KindSlackToken
		}
		return -1, none
	}
	for _, shape := range slackShapes[typ] {
		if e, last := segmentsEnd(t, i+5, '-', shape...); e > 0 && endsWord(t, e) && plausible(last) {
			return e, KindSlackToken
		}
	}
	return -1, none
}

// slackHooks are the shapes of Slack webhook URLs after
// "hooks.slack.com/".
var slackHooks = [][]seg{
	{{text: "services"}, slackTeam, {c: newClass("A-Z", "0-9"), min: 7, max: 13}, slackSecret(alnum, 24, 24)},
	{{text: "workflows"}, slackTeam, {c: newClass("A-Z", "0-9"), min: 7, max: 13}, {c: digit, min: 6, max: 20}, slackSecret(alnum, 24, 24)},
	{{text: "triggers"}, slackTeam, {c: digit, min: 6, max: 20}, slackSecret(newClass("0-9", "a-f"), 32, 32)},
}

// matchSlackWebhook finds Slack webhook URLs:
// https://hooks.slack.com/services/T…/B…/<24 alphanumerics> (incoming
// webhooks), …/workflows/T…/A…/<digits>/<24> and …/triggers/T…/<digits>/
// <32 hex> (Workflow Builder), with or without the scheme. The finding
// covers the URL from its scheme, if any.
//
// Confirmation: structure (the workspace ID starts with T or E, the hook
// ID with B and the workflow ID with A; the secret's alphabet and length;
// plausible).
//
// Sources: Slack API docs, "Sending messages using incoming webhooks"
// (api.slack.com/messaging/webhooks); gitleaks rules/slack.go
// (slack-webhook-url and its examples).
func matchSlackWebhook(t string, i int) (int, Kind) {
	if !startsWord(t, i) {
		return -1, none
	}
	j := i
	switch {
	case hasPrefixAt(t, i, "https://"):
		j += len("https://")
	case hasPrefixAt(t, i, "http://"):
		j += len("http://")
	case i > 0 && t[i-1] == '.': // a longer host name
		return -1, none
	}
	const host = "hooks.slack.com/"
	if !hasPrefixAt(t, j, host) {
		return -1, none
	}
	j += len(host)
	for n, shape := range slackHooks {
		e, last := segmentsEnd(t, j, '/', shape...)
		if e < 0 || !endsWord(t, e) || !plausible(last) {
			continue
		}
		ids := t[j+len(shape[0].text)+1 : e]
		if ids[0] != 'T' && ids[0] != 'E' {
			continue
		}
		if n < 2 { // the hook (B) or workflow (A) ID
			second := ids[strings.IndexByte(ids, '/')+1]
			if (n == 0 && second != 'B') || (n == 1 && second != 'A') {
				continue
			}
		}
		return e, KindSlackWebhook
	}
	return -1, none
}

// matchStripe finds Stripe secret and restricted API keys: "sk_" or "rk_",
// "live_" or "test_", then 24 to 128 characters of [A-Za-z0-9] (24 for
// older keys, about 99 for current ones). Publishable keys (pk_) are meant
// to be public and are not reported.
//
// Confirmation: structure (prefix, alphabet, length, plausible).
//
// Sources: Stripe Docs, "API keys" (docs.stripe.com/keys: key types and
// prefixes); Stripe's security team in GitLab issue 458019 ("pk keys are
// intended to be published", "(sk|rk)_live_[0-9a-z]{10,128}").
func matchStripe(t string, i int) (int, Kind) {
	if !startsWord(t, i) || len(t)-i < 8 {
		return -1, none
	}
	switch t[i : i+8] {
	case "sk_live_", "sk_test_", "rk_live_", "rk_test_":
	default:
		return -1, none
	}
	j := i + 8
	e := alnum.upTo(t, j, 128)
	if n := e - j; n < 24 || n > 128 || !endsWord(t, e) || !plausible(t[j:e]) {
		return -1, none
	}
	return e, KindStripeKey
}

// openAIMarker is "OpenAI" in base64, in the middle of every OpenAI key.
const openAIMarker = "T3BlbkFJ"

// matchOpenAIOrAnthropic finds keys that start "sk-": Anthropic's after
// "sk-ant-" (matchAnthropic), OpenAI's otherwise (matchOpenAI).
func matchOpenAIOrAnthropic(t string, i int) (int, Kind) {
	if !startsWord(t, i) || !hasPrefixAt(t, i, "sk-") {
		return -1, none
	}
	if hasPrefixAt(t, i+3, "ant-") {
		return matchAnthropic(t, i+7)
	}
	return matchOpenAI(t, i+3)
}

// matchOpenAI finds OpenAI API keys, j being after "sk-". Legacy keys: 20
// characters of [A-Za-z0-9], the marker "T3BlbkFJ", 20 more. Project,
// service-account, admin and "None" keys: "proj-", "svcacct-", "admin-" or
// "None-", then N characters of [A-Za-z0-9_-], the marker, N more, with N
// 20, 58 or 74.
//
// Confirmation: structure (the marker at the centre of a body of the
// right length).
//
// Sources: gitleaks rule openai-api-key (rules/openai.go) and its
// collected keys (halves of 58 and 74); keys published by mistake in
// public code, which show the same halves for sk-proj- and halves of 20
// for sk-None- (2024); the marker is base64 of "OpenAI".
func matchOpenAI(t string, j int) (int, Kind) {
	label := ""
	for _, l := range [...]string{"proj-", "svcacct-", "admin-", "None-"} {
		if hasPrefixAt(t, j, l) {
			label = l
			break
		}
	}
	k := j + len(label)
	e := word.upTo(t, k, 2*74+8)
	r := t[k:e]
	if label == "" {
		if len(r) == 48 && r[20:28] == openAIMarker && alnum.all(r) {
			return e, KindOpenAIAPIKey
		}
		return -1, none
	}
	if (len(r)-8)%2 != 0 {
		return -1, none
	}
	switch h := (len(r) - 8) / 2; h {
	case 20, 58, 74:
		if r[h:h+8] == openAIMarker {
			return e, KindOpenAIAPIKey
		}
	}
	return -1, none
}

// matchAnthropic finds Anthropic keys, j being after "sk-ant-": API keys
// "api03-" and admin keys "admin01-", then 93 characters of
// [A-Za-z0-9_-] and "AA" (108 or 110 in all); OAuth access and refresh
// tokens "oat01-" and "ort01-", then at least 40 of [A-Za-z0-9_-].
//
// Confirmation: structure (version, exact length, the "AA" tail,
// plausible); for OAuth tokens, whose length is not published, the
// version and a minimum length.
//
// Sources: Anthropic API docs, "Authentication" and Admin API (the
// sk-ant-api and sk-ant-admin prefixes); gitleaks rules/anthropic.go
// (anthropic-api-key, anthropic-admin-api-key: 93 characters and "AA";
// anthropic-oauth-token, whose length is not published).
func matchAnthropic(t string, j int) (int, Kind) {
	for _, v := range [...]string{"api03-", "admin01-", "oat01-", "ort01-"} {
		if !hasPrefixAt(t, j, v) {
			continue
		}
		k := j + len(v)
		e := word.upTo(t, k, 95)
		r := t[k:e]
		ok := len(r) == 95 && strings.HasSuffix(r, "AA")
		if v == "oat01-" || v == "ort01-" {
			e = word.run(t, k)
			r = t[k:e]
			ok = len(r) >= 40
		}
		if ok && plausible(r) {
			return e, KindAnthropicAPIKey
		}
		return -1, none
	}
	return -1, none
}

// matchHuggingFace finds Hugging Face user access tokens, "hf_" and 34
// letters, and the deprecated organization API tokens, "api_org_" and 34
// letters.
//
// Confirmation: structure (letters only, exact length, plausible).
//
// Sources: Hugging Face Hub docs, "User access tokens" (huggingface.co/
// docs/hub/security-tokens); gitleaks rules/huggingface.go
// (hf_(?i:[a-z]{34}), api_org_(?i:[a-z]{34})) and its examples.
func matchHuggingFace(t string, i int) (int, Kind) {
	if !startsWord(t, i) {
		return -1, none
	}
	var j int
	switch {
	case hasPrefixAt(t, i, "hf_"):
		j = i + 3
	case hasPrefixAt(t, i, "api_org_"):
		j = i + 8
	default:
		return -1, none
	}
	e := word.upTo(t, j, 34)
	if e-j != 34 || !letter.all(t[j:e]) || !plausible(t[j:e]) {
		return -1, none
	}
	return e, KindHuggingFaceToken
}

// matchSendGrid finds SendGrid API keys: "SG.", a 22-character key ID and
// a 43-character secret, both base64url ([A-Za-z0-9_-]), separated by
// ".", 69 in all.
//
// Confirmation: structure (both lengths, alphabet, plausible).
//
// Sources: Twilio SendGrid docs, "API keys" (www.twilio.com/docs/sendgrid/
// ui/account-and-settings/api-keys); GitHub secret scanning supported
// patterns (SendGrid); gitleaks rules/sendgrid.go.
func matchSendGrid(t string, i int) (int, Kind) {
	if !startsWord(t, i) || !hasPrefixAt(t, i, "SG.") {
		return -1, none
	}
	j := i + 3
	a := word.upTo(t, j, 22)
	if a-j != 22 || a >= len(t) || t[a] != '.' {
		return -1, none
	}
	b := word.upTo(t, a+1, 43)
	if b-(a+1) != 43 || !plausible(t[j:a]) || !plausible(t[a+1:b]) {
		return -1, none
	}
	return b, KindSendGridAPIKey
}

// matchTwilio finds Twilio API key SIDs: "SK" and 32 hexadecimal digits,
// 34 in all. A SID alone is weak evidence, so the structure is strict: the
// exact length, hex only, word-bounded. Account SIDs (AC…) identify an
// account and are not secrets; they are not reported.
//
// Confirmation: structure (length, alphabet, boundaries, plausible).
//
// Sources: Twilio docs, "API keys" (www.twilio.com/docs/iam/api-keys: the
// SID starts with SK) and "Glossary: SID" (two letters, 32 hex digits);
// gitleaks rules/twilio.go (SK[0-9a-fA-F]{32}).
func matchTwilio(t string, i int) (int, Kind) {
	if !startsWord(t, i) || !hasPrefixAt(t, i, "SK") {
		return -1, none
	}
	j := i + 2
	e := word.upTo(t, j, 32)
	if e-j != 32 || !hexDigit.all(t[j:e]) || !plausible(t[j:e]) {
		return -1, none
	}
	return e, KindTwilioAPIKey
}

// matchJWT finds JSON Web Tokens in compact serialization: three base64url
// segments separated by "." (the signature may be empty). It may follow
// neither a token byte nor ".".
//
// Confirmation: structure. The header decodes to a JSON object with an
// "alg" member whose value is a string, and the payload decodes to a
// JSON object. A JWE (whose second segment is an encrypted key) or a
// base64 blob of JWT shape does not pass.
//
// Sources: RFC 7519 (JWT) §7.2, RFC 7515 (JWS) §3.1, §4.1.1 ("alg" is
// required); RFC 4648 §5 (base64url).
func matchJWT(t string, i int) (int, Kind) {
	if !startsWord(t, i) || (i > 0 && t[i-1] == '.') {
		return -1, none
	}
	if e := jwtEnd(t, i); e > 0 {
		return e, KindJWT
	}
	return -1, none
}

// pemLabels are the private-key labels of PEM headers, "" last.
var pemLabels = [...]string{"RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ", "PGP ", ""}

// pemState is what one scan remembers about PEM footers: a footer not
// found after some position is not found after any later one, so each
// label's footer is searched for at most once.
type pemState struct{ noFooter [len(pemLabels)]bool }

// match finds PEM private-key headers: "-----BEGIN ", an optional label
// (RSA, EC, DSA, OPENSSH, ENCRYPTED, or PGP with " BLOCK" after KEY),
// "PRIVATE KEY", "-----". A space of the header may also be a soft
// boundary (see scan), so that a header whose spaces are no-break spaces,
// and whose dashes hold a line break, is one. The header
// alone is reported, wherever it is. The finding extends over the key: to
// the matching "-----END …-----" footer if there is one, otherwise over
// the base64 lines that follow (runs of at least 16 characters of
// [A-Za-z0-9+/=], separated by whitespace), so that masking removes the
// key material too.
//
// Confirmation: structure (the exact header).
//
// Sources: RFC 7468 (textual encodings, §10 "PRIVATE KEY", §11
// "ENCRYPTED PRIVATE KEY"); RFC 4880 §6.2 (PGP armor); OpenSSH
// PROTOCOL.key; gitleaks rules/privatekey.go.
func (p *pemState) match(t string, i int, soft []int) (int, Kind) {
	const begin, key, dashes = "-----BEGIN ", "PRIVATE KEY", "-----"
	j := spacedAt(t, i, begin, soft)
	if j < 0 {
		return -1, none
	}
	for n, l := range pemLabels {
		k := spacedAt(t, j, l+key, soft)
		if k < 0 {
			continue
		}
		label := l + key
		if l == "PGP " {
			if k = spacedAt(t, k, " BLOCK", soft); k < 0 {
				continue
			}
			label += " BLOCK"
		}
		if !hasPrefixAt(t, k, dashes) {
			continue
		}
		return p.extend(t, k+len(dashes), n, label), KindPrivateKey
	}
	return -1, none
}

// spacedAt returns the end of p in t at j, where a space of p may also be
// a soft boundary (an offset in soft, ascending), or -1.
func spacedAt(t string, j int, p string, soft []int) int {
	for x := 0; x < len(p); x++ {
		switch {
		case j < len(t) && t[j] == p[x]:
			j++
		case p[x] == ' ':
			if _, ok := slices.BinarySearch(soft, j); !ok {
				return -1
			}
		default:
			return -1
		}
	}
	return j
}

// extend returns the end of the key whose header ends at h.
func (p *pemState) extend(t string, h, n int, label string) int {
	if !p.noFooter[n] {
		footer := "-----END " + label + "-----"
		if x := strings.Index(t[h:], footer); x >= 0 {
			return h + x + len(footer)
		}
		p.noFooter[n] = true
	}
	end := h
	for k := h; ; {
		for k < len(t) && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r' || t[k] == '\n') {
			k++
		}
		e := base64Std.run(t, k)
		if e-k < 16 {
			return end
		}
		end, k = e, e
	}
}

var base64Std = newClass("A-Z", "a-z", "0-9", "+", "/", "=")
