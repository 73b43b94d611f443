package secrets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A findCase is a string and the findings expected in it.
type findCase struct {
	name string
	in   string
	want []Finding
}

// found is a case whose input is before + secret + after, with one finding
// of kind covering the secret.
func found(name string, k Kind, before, secret, after string) findCase {
	return findCase{name, before + secret + after, at(k, runes(before), runes(secret))}
}

// passes is a look-alike case: nothing is found.
func passes(name, in string) findCase { return findCase{name, in, nil} }

// formatCases has, for every kind, real-format credentials (built by the
// format's rules, with a valid checksum where the format has one) and
// look-alikes that must pass.
func formatCases() []findCase {
	ghp := githubToken("ghp_", 1, 30)
	fg := fineGrainedToken(4)
	pat := routableGitLabToken("glpat-", 5, "o:1f", true)
	return []findCase{
		// AWS access key IDs.
		found("an AKIA access key id is found", KindAWSAccessKeyID, "aws key ", awsKey("AKIA", 1), " leaked"),
		found("an ASIA temporary key id is found", KindAWSAccessKeyID, "", awsKey("ASIA", 2), ""),
		found("an ABIA key id is found", KindAWSAccessKeyID, "id=", awsKey("ABIA", 3), "&x=1"),
		found("an ACCA key id is found", KindAWSAccessKeyID, "(", awsKey("ACCA", 4), ")"),
		// AWS's documented example key has the format: it is reported.
		found("AWS's documented example key is reported, it has the format", KindAWSAccessKeyID, "", "AKIAIOSFODNN7EXAMPLE", ""),
		passes("an AKIA key id one character short passes", awsKey("AKIA", 5)[:19]),
		passes("an AKIA key id one character long passes", awsKey("AKIA", 6)+"Q"),
		passes("an AKIA key id with a digit outside base32 passes", "AKIA"+rnd(7, base32Alph, 15)+"0"),
		passes("a lower-case akia key id passes", strings.ToLower(awsKey("AKIA", 8))),
		passes("an AKIA key id inside a longer word passes", "X"+awsKey("AKIA", 9)),
		passes("an IAM user id (AIDA) passes", "AIDA"+rnd(10, base32Alph, 16)),
		passes("a placeholder AKIAXXXXXXXXXXXXXXXX passes", "AKIAXXXXXXXXXXXXXXXX"),

		// GitHub classic tokens.
		found("a ghp_ token with a valid checksum is found", KindGitHubToken, "token ", ghp, ""),
		found("a gho_ token is found", KindGitHubToken, "", githubToken("gho_", 2, 30), ""),
		found("a ghu_ token is found", KindGitHubToken, "", githubToken("ghu_", 3, 30), ""),
		found("a ghs_ token is found", KindGitHubToken, "", githubToken("ghs_", 4, 30), ""),
		found("a 40-character ghr_ token is found", KindGitHubToken, "", githubToken("ghr_", 5, 30), ""),
		found("an 80-character ghr_ token is found", KindGitHubToken, "", githubToken("ghr_", 6, 70), ""),
		found("the base62-token.js documentation example is found", KindGitHubToken, "", "ghp_"+"zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ"+"0mLq17", ""),
		found("a ghs_ token in a URL's userinfo is found", KindGitHubToken, "https://x-access-token:", githubToken("ghs_", 7, 30), "@github.com/o/r.git"),
		found("a stateless ghs_APPID_JWT token is found", KindGitHubToken, "", "ghs_123456_"+jwtHS256(8), ""),
		passes("a ghp_ token with a wrong checksum passes", breakLast(ghp)),
		passes("a ghp_ token inside a 37-character run passes", ghp+"a"),
		passes("a ghp_ token one character short passes", ghp[:39]),
		passes("a ghp_ token after a letter passes", "x"+ghp),
		passes("a ghp_ token after an underscore passes", "_"+ghp),
		passes("an unknown prefix ghx_ with a valid checksum passes", "ghx_"+ghp[4:]),
		passes("a documentation placeholder ghp_ token passes", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
		passes("a 40-character ghp_ token (36 random) passes", githubToken("ghp_", 9, 36)),
		passes("a ghs_APPID_ followed by a JWT without alg passes", "ghs_12_"+jwt(`{"typ":"JWT"}`, `{"a":1}`, "sig")),

		// GitHub fine-grained tokens.
		found("a fine-grained token with a valid checksum is found", KindGitHubFineGrainedToken, "pat: ", fg, "."),
		passes("a fine-grained token with a wrong checksum passes", breakLast(fg[:78])+fg[78:]),
		passes("a fine-grained token one character short passes", fg[:92]),
		passes("a fine-grained token without its inner underscore passes", fg[:33]+fg[34:]+"Q"),
		passes("a fine-grained documentation placeholder passes", "github_pat_11ABCDEFG0_abcdefghijklmnopqrst"),

		// GitLab tokens.
		found("a legacy glpat- token is found", KindGitLabToken, "PRIVATE-TOKEN: ", "glpat-"+rnd(1, base64URL, 20), ""),
		found("a routable glpat- token with a version is found", KindGitLabToken, "", pat, ""),
		found("a routable glpat- token without a version is found", KindGitLabToken, "", routableGitLabToken("glpat-", 6, "o:2a\nu:9", false), ""),
		found("a routable runner token (glrt-t1_) is found", KindGitLabToken, "", routableGitLabToken("glrt-t1_", 7, "c:2\no:1f", true), ""),
		found("a routable deploy token is found", KindGitLabToken, "", routableGitLabToken("gldt-", 8, "o:7", true), ""),
		found("a legacy deploy token is found", KindGitLabToken, "", "gldt-"+rnd(9, base64URL, 20), ""),
		found("an OAuth application secret is found", KindGitLabToken, "", "gloas-"+rnd(10, base64URL, 64), ""),
		found("a pipeline trigger token is found", KindGitLabToken, "", "glptt-"+rnd(11, lowerHex, 40), ""),
		found("a runner registration token is found", KindGitLabToken, "", "GR1348941"+rnd(12, base64URL, 20), ""),
		found("a legacy CI/CD job token is found", KindGitLabToken, "", "glcbt-64_"+rnd(13, base64URL, 20), ""),
		found("a JWT CI/CD job token is found", KindGitLabToken, "", "glcbt-"+jwtHS256(14), ""),
		passes("a routable glpat- token with a wrong CRC passes", breakLast(pat)),
		passes("a routable glpat- token with a wrong length holder but a valid CRC passes", withHolder(pat, "0y")),
		passes("a legacy glpat- token one character long passes", "glpat-"+rnd(15, base64URL, 21)),
		passes("the glpat-XXXXXXXXXXX-XXXXXXXX placeholder passes", "glpat-XXXXXXXXXXX-XXXXXXXX"),
		passes("a glpat- token inside a longer word passes", "aglpat-"+rnd(16, base64URL, 20)),

		// Slack tokens.
		found("a bot token is found", KindSlackToken, "SLACK_BOT_TOKEN=", slackBot(1), ""),
		found("a user token is found", KindSlackToken, "", slackUser(2), ""),
		found("an app-level token is found", KindSlackToken, "", slackApp(3), ""),
		found("a legacy xoxs token is found", KindSlackToken, "", "xoxs-"+rnd(4, digits, 10)+"-"+rnd(5, digits, 10)+"-"+rnd(6, digits, 10)+"-"+rnd(7, lowerHex, 10), ""),
		found("a configuration refresh token is found", KindSlackToken, "", "xoxe-1-"+rnd(8, alphaNum, 146), ""),
		found("a configuration access token is found", KindSlackToken, "", "xoxe.xoxp-1-"+rnd(9, alphaNum, 164), ""),
		found("a legacy bot token is found", KindSlackToken, "", "xoxb-"+rnd(10, digits, 12)+"-"+rnd(11, alphaNum, 24), ""),
		passes("a bot token followed by another segment passes", slackBot(12)+"-extra"),
		passes("a configuration access token with a short secret passes", "xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere"),
		passes("the xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx placeholder passes", "xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx"),
		passes("a bot token with a short secret passes", "xoxb-12345-abcd234"),
		passes("a user token with four-digit ids passes", "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"),
		passes("a user token with a placeholder secret passes", "xoxp-572370529330-573807301142-572331691188-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
		passes("an xoxo in an image name passes", "https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg"),

		// Slack webhooks.
		found("an incoming webhook URL is found", KindSlackWebhook, "post to ", slackWebhookURL(1), " now"),
		found("a Workflow Builder trigger URL is found", KindSlackWebhook, "", slackTriggerURL(2), ""),
		found("a webhook without its scheme is found", KindSlackWebhook, "", strings.TrimPrefix(slackWebhookURL(3), "https://"), ""),
		found("a Workflow Builder workflow URL is found", KindSlackWebhook, "",
			"https://hooks.slack.com/workflows/T"+rnd(6, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10)+"/A"+rnd(7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10)+"/"+rnd(8, digits, 18)+"/"+rnd(9, alphaNum, 24), ""),
		found("a webhook followed by a slash ends before it", KindSlackWebhook, "", slackWebhookURL(10), "/"),
		passes("a webhook whose hook id does not start with B passes", strings.Replace(slackWebhookURL(11), "/B", "/C", 1)),
		passes("a webhook with a 23-character secret passes", slackWebhookURL(4)[:len(slackWebhookURL(4))-1]),
		passes("a webhook with a placeholder secret passes", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
		passes("a webhook path on another host passes", "https://nothooks.slack.com/services/T0DCUJB1Q/B0DD08H5G/"+rnd(5, alphaNum, 24)),
		passes("the Slack webhook documentation page passes", "https://api.slack.com/messaging/webhooks"),

		// Stripe.
		found("a live secret key is found", KindStripeKey, "", stripeKey("sk_live_", 1, 24), ""),
		found("a current-length test secret key is found", KindStripeKey, "", stripeKey("sk_test_", 2, 99), ""),
		found("a restricted key is found", KindStripeKey, "", stripeKey("rk_live_", 3, 99), ""),
		passes("a publishable key passes", stripeKey("pk_live_", 4, 99)),
		passes("a secret key with 23 characters passes", stripeKey("sk_live_", 5, 23)),
		passes("the sk_test_EXAMPLE_KEY_12345 placeholder passes", "sk_test_EXAMPLE_KEY_12345"),
		passes("a secret key inside a longer word passes", "mysk_live_"+rnd(6, alphaNum, 24)),

		// Google API keys.
		found("a Google API key is found", KindGoogleAPIKey, "key=", googleKey(1), "&q=maps"),
		passes("a Google API key one character short passes", googleKey(2)[:38]),
		passes("a Google API key one character long passes", googleKey(3)+"x"),
		passes("a Google API key placeholder passes", "AIzaSyD-1234567890abcdefghijklmnopqrstuv"),

		// OpenAI.
		found("a legacy OpenAI key is found", KindOpenAIAPIKey, "OPENAI_API_KEY=", openAILegacy(1), ""),
		found("a project key is found", KindOpenAIAPIKey, "", openAIKey("proj-", 2, 74), ""),
		found("a service-account key is found", KindOpenAIAPIKey, "", openAIKey("svcacct-", 3, 74), ""),
		found("an admin key is found", KindOpenAIAPIKey, "", openAIKey("admin-", 4, 58), ""),
		passes("a legacy-length key without the marker passes", "sk-"+rnd(5, alphaNum, 48)),
		passes("a project key with unequal halves passes", openAIKey("proj-", 6, 74)[:len(openAIKey("proj-", 6, 74))-1]),
		passes("a project key with the marker off centre passes", "sk-proj-"+rnd(7, base64URL, 70)+"T3BlbkFJ"+rnd(8, base64URL, 78)),
		passes("a short sk- placeholder passes", "sk-abcdefghijklmnop1234"),

		// Anthropic.
		found("an Anthropic API key is found", KindAnthropicAPIKey, "x-api-key: ", anthropicKey("api03-", 1), ""),
		found("an Anthropic admin key is found", KindAnthropicAPIKey, "", anthropicKey("admin01-", 2), ""),
		passes("an Anthropic key ending BB passes", strings.TrimSuffix(anthropicKey("api03-", 3), "AA")+"BB"),
		passes("an Anthropic key one character short passes", "sk-ant-api03-"+rnd(4, base64URL, 92)+"AA"),
		passes("an Anthropic key of an unknown version passes", "sk-ant-api99-"+rnd(5, base64URL, 93)+"AA"),

		// npm.
		found("an npm token with a valid checksum is found", KindNPMToken, "//registry.npmjs.org/:_authToken=", npmToken(1), ""),
		passes("an npm token with a wrong checksum passes", breakLast(npmToken(2))),
		passes("an npm token one character short passes", npmToken(3)[:39]),
		passes("an npm placeholder passes", "npm_xxxxxxxxxxxxxxxxxxxxxxxxxx"),

		// Hugging Face.
		found("a Hugging Face token is found", KindHuggingFaceToken, "huggingface-cli login --token ", hfToken("hf_", 1), ""),
		found("an organization API token is found", KindHuggingFaceToken, "", hfToken("api_org_", 2), ""),
		passes("a Hugging Face token with a digit passes", "hf_"+rnd(3, letters, 33)+"7"),
		passes("a Hugging Face token one letter short passes", "hf_"+rnd(4, letters, 33)),
		passes("the hf_xxx placeholder passes", "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
		passes("an identifier starting hf_ passes", "- (id)hf_requiredCharacteristicTypesForDisplayMetadata;"),

		// SendGrid.
		found("a SendGrid key is found", KindSendGridAPIKey, "SENDGRID_API_KEY=", sendGridKey(1), ""),
		passes("a SendGrid key with a 21-character id passes", "SG."+rnd(2, base64URL, 21)+"."+rnd(3, base64URL, 43)),
		passes("a SendGrid key with a 42-character secret passes", "SG."+rnd(4, base64URL, 22)+"."+rnd(5, base64URL, 42)),
		passes("a SendGrid placeholder passes", "SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),

		// Twilio.
		found("a Twilio API key SID is found", KindTwilioAPIKey, "", twilioKey("SK", 1), ""),
		passes("a Twilio account SID passes", twilioKey("AC", 2)),
		passes("a Twilio API key SID one digit short passes", twilioKey("SK", 3)[:33]),
		passes("a Twilio API key SID with a non-hex letter passes", twilioKey("SK", 4)[:33]+"g"),
		passes("a Twilio API key SID inside a longer word passes", "TASK"+rnd(5, lowerHex, 32)),

		// JWT.
		found("a signed JWT is found", KindJWT, "Authorization: Bearer ", jwtHS256(1), ""),
		found("a JWT in a URL path is found", KindJWT, "https://example.com/magic/", jwtHS256(2), "?next=/"),
		found("an unsecured JWT with an empty signature is found", KindJWT, "", jwt(`{"alg":"none"}`, `{"sub":"1"}`, ""), ""),
		found("a JWT whose JSON starts with a line break is found", KindJWT, "", jwt("{\n \"alg\": \"RS256\"\n}", "{\n \"iss\": \"x\"\n}", "abc"), ""),
		passes("a JWT whose header lacks alg passes", jwt(`{"typ":"JWT"}`, `{"sub":"1"}`, "abc")),
		passes("a JWT whose alg is not a string passes", jwt(`{"alg":1}`, `{"sub":"1"}`, "abc")),
		passes("a JWT whose alg is null passes", jwt(`{"alg":null}`, `{"sub":"1"}`, "abc")),
		passes("a JWT whose payload is an array passes", jwt(`{"alg":"HS256"}`, `[1,2]`, "abc")),
		passes("a base64 blob of JWT shape passes", "eyJ"+rnd(1, base64URL, 40)+".eyJ"+rnd(2, base64URL, 60)+"."+rnd(3, base64URL, 43)),
		passes("a JWT with two segments passes", strings.Join(strings.Split(jwtHS256(3), ".")[:2], ".")),
		passes("a JWE's first three segments pass", jwt(`{"alg":"RSA-OAEP","enc":"A256GCM"}`, "\x8f\x01binary key", "iv")),

		// PEM private keys.
		found("a private key header alone is found", KindPrivateKey, "what is ", "-----BEGIN RSA PRIVATE KEY-----", " for?"),
		found("a PKCS#8 key with its body and footer is found whole", KindPrivateKey, "key:\n",
			"-----BEGIN PRIVATE KEY-----\n"+pemBody(1)+"\n-----END PRIVATE KEY-----", "\nthanks"),
		found("an OpenSSH key header is found", KindPrivateKey, "", "-----BEGIN OPENSSH PRIVATE KEY-----", ""),
		found("an encrypted PKCS#8 key header is found", KindPrivateKey, "", "-----BEGIN ENCRYPTED PRIVATE KEY-----", ""),
		found("a PGP private key block header is found", KindPrivateKey, "", "-----BEGIN PGP PRIVATE KEY BLOCK-----", ""),
		found("a key flattened onto one line without footer is found with its body", KindPrivateKey, "",
			"-----BEGIN EC PRIVATE KEY-----"+rnd(2, alphaNum, 64)+" "+rnd(3, alphaNum, 30), " is it valid"),
		passes("a public key header passes", "-----BEGIN PUBLIC KEY-----"),
		passes("a certificate header passes", "-----BEGIN CERTIFICATE-----"),
		passes("a header without its closing dashes passes", "-----BEGIN RSA PRIVATE KEY"),
		passes("a lower-case header passes", "-----begin rsa private key-----"),
		passes("a PGP public key block passes", "-----BEGIN PGP PUBLIC KEY BLOCK-----"),
	}
}

func TestFind(t *testing.T) {
	for _, c := range formatCases() {
		t.Run(c.name, func(t *testing.T) {
			if got := Find(c.in); !slices.Equal(got, c.want) {
				t.Errorf("Find(%q) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}

func TestEveryKindHasPositivesAndLookAlikes(t *testing.T) {
	positives := map[Kind]int{}
	for _, c := range formatCases() {
		for _, f := range c.want {
			positives[f.Kind]++
		}
	}
	for _, k := range Kinds {
		if positives[k] == 0 {
			t.Errorf("kind %s has no positive case", k)
		}
	}
	if len(Kinds) != 16 {
		t.Errorf("len(Kinds) = %d, want 16", len(Kinds))
	}
	seen := map[Kind]bool{}
	for _, k := range Kinds {
		if seen[k] {
			t.Errorf("kind %s listed twice", k)
		}
		seen[k] = true
	}
}

// TestNoCredentialIsShorterThanMinLength holds minLength to the formats:
// no blank closer than it to a credential's start is tried as its end, so
// a shorter credential glued to a word by a blank would be missed.
func TestNoCredentialIsShorterThanMinLength(t *testing.T) {
	for _, c := range formatCases() {
		for _, f := range c.want {
			if f.Length < minLength {
				t.Errorf("%s: a %s of %d characters, shorter than minLength (%d)", c.name, f.Kind, f.Length, minLength)
			}
		}
	}
}

// invisibles are characters matching reads through.
var invisibles = []struct {
	name string
	r    rune
}{
	{"zero width space", 0x200B},
	{"zero width non-joiner", 0x200C},
	{"zero width joiner", 0x200D},
	{"word joiner", 0x2060},
	{"byte order mark", 0xFEFF},
	{"soft hyphen", 0x00AD},
	{"left-to-right mark", 0x200E},
	{"right-to-left mark", 0x200F},
	{"right-to-left override", 0x202E},
	{"first strong isolate", 0x2068},
	{"arabic letter mark", 0x061C},
	{"variation selector 16", 0xFE0F},
	{"tag latin small letter a", 0xE0061},
	{"combining grapheme joiner", 0x034F},
	{"null byte", 0x0000},
	{"escape", 0x001B},
}

func TestFindReadsThroughInvisibleCharacters(t *testing.T) {
	tok := githubToken("ghp_", 1, 30)
	for _, inv := range invisibles {
		t.Run("a "+inv.name+" inside a token is read through", func(t *testing.T) {
			in := "日本語 " + tok[:4] + string(inv.r) + tok[4:20] + string(inv.r) + tok[20:] + " ok"
			want := at(KindGitHubToken, 4, 42)
			if got := Find(in); !slices.Equal(got, want) {
				t.Errorf("Find(%q) = %v, want %v", in, got, want)
			}
		})
	}
	cases := []findCase{
		{"multi-byte characters before a token count as one each", "日本語 " + tok, at(KindGitHubToken, 4, 40)},
		{"an emoji before a token counts as one character", "🔑🔑 " + tok, at(KindGitHubToken, 3, 40)},
		{"invisible characters around a token are not part of it", "\u200b" + tok + "\u200b", at(KindGitHubToken, 1, 40)},
		{"a zero width space between a letter and a token joins them", "x\u200b" + tok, nil},
		{"a space inside a token breaks it", tok[:20] + " " + tok[20:], nil},
		{"a tab inside a token breaks it", tok[:20] + "\t" + tok[20:], nil},
		{"a newline inside a token is read through", tok[:20] + "\n" + tok[20:], at(KindGitHubToken, 0, 41)},
		{"invalid UTF-8 bytes count as one character each", "\xff\xfe " + tok, at(KindGitHubToken, 3, 40)},
		{"soft hyphens inside an AWS key id are read through", "key: AKIA\u00ad" + rnd(1, base32Alph, 8) + "\u00ad" + rnd(2, base32Alph, 8), at(KindAWSAccessKeyID, 5, 22)},
		{"bidi marks inside a PEM header are read through", "-----BEGIN\u200e RSA PRIVATE\u200f KEY-----", at(KindPrivateKey, 0, 33)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Find(c.in); !slices.Equal(got, c.want) {
				t.Errorf("Find(%q) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}

// disguises are ways of writing a credential that a reader still reads as
// it: each takes the credential and returns it disguised.
var disguises = []struct {
	name string
	do   func(string) string
}{
	{"a line break inside", middle("\n")},
	{"a CR LF inside", middle("\r\n")},
	{"a line separator inside", middle("\u2028")},
	{"a paragraph separator inside", middle("\u2029")},
	{"a braille pattern blank inside", middle("\u2800")},
	{"an ideographic space inside", middle("\u3000")},
	{"a no-break space inside", middle("\u00a0")},
	{"a narrow no-break space inside", middle("\u202f")},
	{"a figure space inside", middle("\u2007")},
	{"a combining acute accent inside", middle("\u0301")},
	{"a combining enclosing circle inside", middle("\u20dd")},
	{"fullwidth forms", fullwidth},
	{"every byte percent-encoded", func(s string) string { return encode(s, 1) }},
}

// middle returns a disguise that inserts in in the middle of a credential.
func middle(in string) func(string) string {
	return func(s string) string { return s[:len(s)/2] + in + s[len(s)/2:] }
}

// TestFindReadsThroughDisguises finds every credential of formatCases
// under every disguise, where it was written: in the caller's characters,
// spanning the disguise. Glued to words by blanks on both sides, it is
// still found where it starts; a format of variable length (a JWT's
// signature, a Stripe key, a Slack secret) may take in the word glued
// after it, as a reader could too, but no more. A private key is left out
// there: its base64 lines, which have no fixed end, take in whatever
// follows them.
func TestFindReadsThroughDisguises(t *testing.T) {
	for _, c := range formatCases() {
		if len(c.want) != 1 {
			continue
		}
		f := c.want[0]
		rs := []rune(c.in)
		before, secret, after := string(rs[:f.Position]), string(rs[f.Position:f.Position+f.Length]), string(rs[f.Position+f.Length:])
		for _, d := range disguises {
			t.Run(c.name+", "+d.name, func(t *testing.T) {
				x := d.do(secret)
				in, want := before+x+after, at(f.Kind, f.Position, runes(x))
				if got := Find(in); !slices.Equal(got, want) {
					t.Errorf("Find(%q) = %v, want %v", in, got, want)
				}
				if f.Kind == KindPrivateKey {
					return
				}
				in = before + "glued\u2028" + x + "\u2028glued" + after
				got := Find(in)
				if len(got) != 1 || got[0].Kind != f.Kind || got[0].Position != f.Position+6 ||
					got[0].Length < runes(x) || got[0].Length > runes(x)+6 {
					t.Errorf("Find(%q) = %v, want one %s at %d of %d to %d characters",
						in, got, f.Kind, f.Position+6, runes(x), runes(x)+6)
				}
			})
		}
	}
}

func TestFindSeveralSecrets(t *testing.T) {
	gh, aws, slack, j := githubToken("ghp_", 1, 30), awsKey("AKIA", 2), slackBot(3), jwtHS256(4)
	in := "a " + gh + " b " + aws + " ü " + slack + "\n" + j
	want := []Finding{
		{KindGitHubToken, 2, 40},
		{KindAWSAccessKeyID, 45, 20},
		{KindSlackToken, 68, runes(slack)},
		{KindJWT, 69 + runes(slack), runes(j)},
	}
	if got := Find(in); !slices.Equal(got, want) {
		t.Errorf("Find = %v, want %v", got, want)
	}
}

func TestFindGluedSecrets(t *testing.T) {
	pem := "-----BEGIN RSA PRIVATE KEY-----"
	gh := githubToken("ghp_", 5, 30)
	cases := []findCase{
		{"a token glued to a PEM header is found once the header is masked",
			pem + "\n" + "-----END RSA PRIVATE KEY-----" + gh,
			[]Finding{{KindPrivateKey, 0, 61}, {KindGitHubToken, 61, 40}}},
		{"an AWS key id glued before a PEM header is found once the header is masked",
			awsKey("AKIA", 6) + pem,
			[]Finding{{KindAWSAccessKeyID, 0, 20}, {KindPrivateKey, 20, 31}}},
		{"two tokens glued together are not found (one long run)", gh + gh, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Find(c.in)
			if !slices.Equal(got, c.want) {
				t.Errorf("Find(%q) = %v, want %v", c.in, got, c.want)
			}
			if again := Find(Mask(c.in, got)); again != nil {
				t.Errorf("Find(Mask(…)) = %v, want none", again)
			}
		})
	}
}

func TestMask(t *testing.T) {
	gh, aws := githubToken("ghp_", 1, 30), awsKey("AKIA", 2)
	cases := []struct {
		name string
		in   string
		fs   []Finding
		want string
	}{
		{"nothing found leaves the string as it is", "hello world", nil, "hello world"},
		{"a token is replaced by its kind", "use " + gh + " now", Find("use " + gh + " now"), "use [REDACTED:github_token] now"},
		{"invisible characters inside a token go with it", "日本 " + gh[:10] + "\u200b" + gh[10:] + "\u200b!", Find("日本 " + gh[:10] + "\u200b" + gh[10:] + "\u200b!"), "日本 [REDACTED:github_token]\u200b!"},
		{"several tokens are replaced", gh + "," + aws, Find(gh + "," + aws), "[REDACTED:github_token],[REDACTED:aws_access_key_id]"},
		{"findings out of order are applied in order", "ab cd", []Finding{{KindJWT, 3, 2}, {KindJWT, 0, 2}}, "[REDACTED:jwt] [REDACTED:jwt]"},
		{"an overlapping finding is skipped", "abcdef", []Finding{{KindJWT, 0, 4}, {KindNPMToken, 2, 3}}, "[REDACTED:jwt]ef"},
		{"a finding past the end is cut", "abc", []Finding{{KindJWT, 1, 10}}, "a[REDACTED:jwt]"},
		{"a finding outside the string is skipped", "abc", []Finding{{KindJWT, 3, 1}, {KindJWT, -1, 1}}, "abc"},
		{"an empty finding is skipped", "abc", []Finding{{KindJWT, 1, 0}}, "abc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Mask(c.in, c.fs); got != c.want {
				t.Errorf("Mask(%q, %v) = %q, want %q", c.in, c.fs, got, c.want)
			}
		})
	}
}

func TestFindInURL(t *testing.T) {
	ant := anthropicKey("api03-", 1)
	gh := githubToken("ghp_", 2, 30)
	escaped := strings.Replace(ant, "-", "%2D", 1) // sk%2Dant-api03-…
	double := strings.Replace(ant, "-", "%252D", 1)
	zw := gh[:10] + "%E2%80%8B" + gh[10:] // a zero width space, percent-encoded
	cases := []findCase{
		found("a key in a query string is found", KindAnthropicAPIKey, "https://example.com/search?q=", ant, "&x=1"),
		found("a percent-encoded key in a query is found, spanning the escapes", KindAnthropicAPIKey, "https://example.com/?key=", escaped, ""),
		found("a key encoded twice is found", KindAnthropicAPIKey, "https://example.com/?key=", double, ""),
		found("a fully percent-encoded token is found", KindGitHubToken, "https://example.com/?t=", encode(gh, 1), "&u=2"),
		found("a percent-encoded zero width space inside a token is read through", KindGitHubToken, "https://example.com/?t=", zw, ""),
		found("a token after an encoded space is found in the raw reading", KindGitHubToken, "https://example.com/?q=token%20", gh, ""),
		found("a token in the path is found", KindGitHubToken, "https://example.com/", gh, "/x"),
		found("a token in the userinfo is found", KindGitHubToken, "https://u:", gh, "@example.com/"),
		found("a form-encoded PEM header is found", KindPrivateKey, "https://example.com/?q=", "-----BEGIN+RSA+PRIVATE+KEY-----", ""),
		found("a percent-encoded JWT separator is read through", KindJWT, "https://example.com/?t=", strings.ReplaceAll(jwtHS256(3), ".", "%2E"), ""),
		found("a Slack webhook in a query parameter is found", KindSlackWebhook, "https://example.com/?hook=", encode(slackWebhookURL(4), 1), ""),
		passes("an ordinary URL passes", "https://example.com/search?q=golang+generics&page=2"),
		passes("an invalid escape passes", "https://example.com/%zz%2"),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FindInURL(c.in)
			if !slices.Equal(got, c.want) {
				t.Errorf("FindInURL(%q) = %v, want %v", c.in, got, c.want)
			}
			if again := FindInURL(Mask(c.in, got)); again != nil {
				t.Errorf("FindInURL(Mask(…)) = %v, want none", again)
			}
		})
	}
	t.Run("FindInURL finds whatever Find finds", func(t *testing.T) {
		for _, c := range formatCases() {
			if got := FindInURL(c.in); !slices.Equal(got, c.want) {
				t.Errorf("FindInURL(%q) = %v, want %v", c.in, got, c.want)
			}
		}
	})
}

// TestCharacterClasses classifies characters as normalized does, in its
// order: invisible (removed everywhere), else blank (read through inside
// a credential, a boundary too), else visible.
func TestCharacterClasses(t *testing.T) {
	const visible, inv, blk = "visible", "invisible", "blank"
	cases := []struct {
		name  string
		r     rune
		class string
	}{
		{"a tab separates words: visible", '\t', visible},
		{"the space separates words: visible", ' ', visible},
		{"a line feed is a blank", '\n', blk},
		{"a carriage return is a blank", '\r', blk},
		{"a vertical tab is a control character", '\v', inv},
		{"a null byte is a control character", 0, inv},
		{"DEL is a control character", 0x7F, inv},
		{"NEL is a C1 control character", 0x85, inv},
		{"a no-break space is a blank", 0xA0, blk},
		{"a soft hyphen is invisible", 0xAD, inv},
		{"an Arabic number sign is visible (prepended concatenation mark)", 0x0600, visible},
		{"an Ogham space mark is a blank", 0x1680, blk},
		{"a Mongolian vowel separator is invisible", 0x180E, inv},
		{"a Khmer inherent vowel is invisible", 0x17B4, inv},
		{"an en quad, the first typographic space, is a blank", 0x2000, blk},
		{"a hair space, the last typographic space, is a blank", 0x200A, blk},
		{"the line separator is a blank", 0x2028, blk},
		{"the paragraph separator is a blank", 0x2029, blk},
		{"a narrow no-break space is a blank", 0x202F, blk},
		{"a medium mathematical space is a blank", 0x205F, blk},
		{"an invisible times operator is invisible", 0x2062, inv},
		{"a braille pattern blank is a blank", 0x2800, blk},
		{"a braille pattern with one dot is visible", 0x2801, visible},
		{"an ideographic space is a blank", 0x3000, blk},
		{"a Hangul filler is invisible", 0x3164, inv},
		{"an interlinear annotation anchor is invisible", 0xFFF9, inv},
		{"the replacement character is visible", 0xFFFD, visible},
		{"a variation selector supplement is invisible", 0xE0100, inv},
		{"an Egyptian hieroglyph format control is visible", 0x13430, visible},
		{"a letter is visible", 'a', visible},
	}
	for _, i := range invisibles {
		cases = append(cases, struct {
			name  string
			r     rune
			class string
		}{"the " + i.name + " is invisible", i.r, inv})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := visible
			if invisible(c.r, len(string(c.r))) {
				got = inv
			} else if blank(c.r) {
				got = blk
			}
			if got != c.class {
				t.Errorf("%U is %s, want %s", c.r, got, c.class)
			}
		})
	}
}

func TestNormalized(t *testing.T) {
	cases := []struct {
		name   string
		in     string
		join   bool
		text   string
		soft   []int
		origin string // for each byte of text, the characters [lo, hi) it came from
	}{
		{"plain ASCII is read as it is", "ab cd", true, "ab cd", nil, "0-1 1-2 2-3 3-4 4-5"},
		{"a line break is removed, a soft boundary", "ab\ncd", true, "abcd", []int{2}, "0-1 1-2 3-4 4-5"},
		{"spaced, a line break is read as a space", "ab\ncd", false, "ab cd", nil, "0-1 1-2 2-3 3-4 4-5"},
		{"CR LF is one soft boundary", "ab\r\ncd", true, "abcd", []int{2}, "0-1 1-2 4-5 5-6"},
		{"spaced, a no-break space is read as a space", "a\u00a0b", false, "a b", nil, "0-1 1-2 2-3"},
		{"a blank at the start is a soft boundary at offset 0", "\u3000ab", true, "ab", []int{0}, "1-2 2-3"},
		{"the space and the tab stay", "a\tb c", true, "a\tb c", nil, "0-1 1-2 2-3 3-4 4-5"},
		{"fullwidth letters fold, each to its character, a run between soft boundaries", "日ｇｈx", true, "日ghx", []int{3, 5}, "0-1 0-1 0-1 1-2 2-3 3-4"},
		{"spaced, fullwidth letters stay", "ｇ", false, "ｇ", nil, "0-1 0-1 0-1"},
		{"a fullwidth full stop folds to a full stop", "a．b", true, "a.b", []int{1, 2}, "0-1 1-2 2-3"},
		{"a ligature folds to its letters, both from it", "ﬁx", true, "fix", []int{0, 2}, "0-1 0-1 1-2"},
		{"a combining mark is removed, a soft boundary", "a\u0301b", true, "ab", []int{1}, "0-1 2-3"},
		{"spaced, a combining mark stays", "a\u0301b", false, "a\u0301b", nil, "0-1 1-2 1-2 2-3"},
		{"a precomposed letter reads as its base letter", "\u00e1b", true, "ab", []int{0, 1}, "0-1 1-2"},
		{"a mark inside a folded run is a soft boundary", "ｇ\u0301ｈ", true, "gh", []int{0, 1}, "0-1 2-3"},
		{"a character without decomposition stays, no boundary", "a日", true, "a日", nil, "0-1 1-2 1-2 1-2"},
		{"an invisible character is removed, no boundary", "a\u200bb", true, "ab", nil, "0-1 2-3"},
		{"an invalid byte is one character, kept", "a\xffb", true, "a\xffb", nil, "0-1 1-2 2-3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, soft := runeView(c.in).normalized(c.join)
			var origin []string
			for i := range len(v.text) {
				origin = append(origin, fmt.Sprintf("%d-%d", v.start(i), v.end(i)))
			}
			if v.text != c.text || !slices.Equal(soft, c.soft) || strings.Join(origin, " ") != c.origin {
				t.Errorf("normalized(%q, %v) = %q %v from %q, want %q %v from %q",
					c.in, c.join, v.text, soft, strings.Join(origin, " "), c.text, c.soft, c.origin)
			}
		})
	}
}
