package secrets

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
)

// ordinary is text an agent sends out every day: search queries and URLs,
// with hex hashes, UUIDs, git SHAs, base64 data, long words, code and
// identifiers that resemble credentials without being any.
var ordinary = []string{
	"golang generics tutorial",
	"how to reverse a linked list in rust",
	"weather in Helsinki tomorrow",
	"best pizza near me open now",
	"Pneumonoultramicroscopicsilicovolcanoconiosis meaning",
	"Donaudampfschifffahrtsgesellschaftskapitän",
	"Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch railway station",
	"sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"md5 d41d8cd98f00b204e9800998ecf8427e collision",
	"git commit 9fceb02d0ae598e95dc970b74767f19372d61af8 broke the build",
	"revert a1b2c3d",
	"uuid 123e4567-e89b-12d3-a456-426614174000 format",
	"f47ac10b-58cc-4372-a567-0e02b2c3d479",
	"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	"base64 decode SGVsbG8sIFdvcmxkIQ==",
	"what does the header eyJhbGciOiJIUzI1NiJ9 mean",
	"jwt.io debugger",
	"AKIA prefix meaning aws",
	"ASIA PACIFIC ECONOMIC COOPERATION SUMMIT",
	"ghp_ token format github",
	"github_pat_ fine-grained tokens expiration",
	"sk_live_ vs sk_test_ stripe",
	"pk_live_51H8Fp2LkdIwHu7ixGtRbb4Kl3JpxlN8bN0Qz1ueE3vX9ZqE5gL6rYt0 publishable key",
	"xoxb token scopes slack",
	"hooks.slack.com services webhook how to",
	"hf_hub_download example",
	"npm_config_cache environment variable",
	"SG.mail send api",
	"Twilio SK vs AC sid difference",
	"AC2c5ef8f3a0b1d4e6f7a8b9c0d1e2f3a4b5",
	"-----BEGIN CERTIFICATE----- parse error openssl",
	"-----BEGIN PUBLIC KEY----- to jwk",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGw8aU5j0yB2n2q7cQ8q6bX2oN0u4Yq9Zr3aWcVb1Xy user@host",
	"sk-learn random forest hyperparameters",
	"AIza prefix google maps key restrictions",
	"glpat token expired 401",
	"aws s3 cp s3://my-bucket/AKIAPATH/file.txt .",
	"ipv6 2001:0db8:85a3:0000:0000:8a2e:0370:7334",
	"docker image sha256:4d2f5c9e1b7a3f8e6d0c2b4a9f7e5d3c1b8a6f4e2d0c9b7a5f3e1d8c6b4a2f0e",
	"CVE-2024-3094 xz backdoor",
	"isbn 978-3-16-148410-0",
	"IBAN DE89370400440532013000",
	"https://en.wikipedia.org/wiki/Special:Search?search=credential+stuffing",
	"https://github.com/golang/go/commit/9fceb02d0ae598e95dc970b74767f19372d61af8",
	"https://github.com/rypsok/rypsok/blob/main/front/secrets/formats.go#L42",
	"https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
	"https://docs.google.com/document/d/1W7KCxOxP-1Fy5EyF2lbJGE2WuKmu5v0suYqoHas1jRM/edit",
	"https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456/view?usp=sharing",
	"https://maps.googleapis.com/maps/api/geocode/json?address=Helsinki",
	"https://api.slack.com/authentication/token-types",
	"https://stripe.com/docs/keys#obtain-api-keys",
	"https://example.com/a%20b/c%2Fd?q=%E6%97%A5%E6%9C%AC&r=50%25",
	"https://search.example.org/?q=%22exact+phrase%22+-exclude&lang=fi",
	"https://cdn.example.net/assets/app.3f9a2b7c1d4e5f60.js",
	"https://example.com/reset?token=ab12cd34",
	"https://s3.amazonaws.com/bucket/object?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600",
	"https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg",
	"https://example.com/eyes/eye-exam?eye=left.right.both",
	"https://example.com/path.with.dots/eyJustText.eyMoreText.sig",
	"https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
	"SKU-12345 ASKED TASK Skipper SKYLINE",
	"the -----BEGIN----- markers and PRIVATE KEY word",
	"ghp_abcdefghijklmnopqrstuvwxyz0123456789",
	"AKIAIOSFODNN7EXAMPL",
	"ＧＨＰ fullwidth letters ａｂｃ",
	"emoji 🔑🗝️ key rings",
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	strings.Repeat("abcdefghijklmnopqrstuvwxyz", 8),
	// Prose with line breaks, no-break and ideographic spaces, fullwidth
	// text, combining marks and escapes, and JWT-like text whose parts
	// are not JSON: blanks are read through and forms folded, and
	// nothing is found in them.
	"ASIA\nPACIFIC\nECONOMIC\nCOOPERATION\nSUMMIT",
	"weather\u00a0in\u00a0Helsinki\u00a0tomorrow\r\nbest pizza\u2028near me",
	"sk_live_\u00a0vs\u00a0sk_test_\u3000stripe\u2800keys",
	"AKIA\u00a0prefix\nmeaning\naws\u202fIAM\u2007user",
	"ｆｕｌｌｗｉｄｔｈ　ｓｅａｒｃｈ　ｑｕｅｒｙ　ｔｏｋｙｏ　ｔｏｗｅｒ",
	"ＧＨＰ＿ ｔｏｋｅｎ ｆｏｒｍａｔ ＡＫＩＡ ＳＫ１２３",
	"cafe\u0301 re\u0301sume\u0301 nai\u0308ve jalapen\u0303o",
	"ghp%5Fabcdefghijklmnopqrstuvwxyz0123456789",
	"https://example.com/?q=ghp_%2520token%2520format&t=%25252F",
	"eyJustText．eyMoreText．sig",
	"eyJhbGciOiJIUzI1NiJ9%2E" + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":`)) + "%2Esig",
	"eyJhbGciOiJIUzI1NiJ9．" + base64.RawURLEncoding.EncodeToString([]byte(`["a","b"]`)) + "．sig",
	"sha256\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\nuuid\u00a0123e4567-e89b-12d3-a456-426614174000",
}

func TestOrdinaryTextHasNoFindings(t *testing.T) {
	if len(ordinary) < 50 {
		t.Fatalf("corpus has %d entries, want at least 50", len(ordinary))
	}
	for _, s := range ordinary {
		if got := Find(s); got != nil {
			t.Errorf("Find(%q) = %v, want none", s, got)
		}
		if got := FindInURL(s); got != nil {
			t.Errorf("FindInURL(%q) = %v, want none", s, got)
		}
	}
}

// TestOrdinaryTextWithBlanksHasNoFindings reads the corpus with its
// spaces replaced by each blank that matching reads through, and with no
// spaces at all: reading through blanks joins words, and joined words of
// ordinary text are still no credential.
func TestOrdinaryTextWithBlanksHasNoFindings(t *testing.T) {
	for _, b := range []string{"\n", "\r\n", "\u00a0", "\u2028", "\u3000", "\u2800", ""} {
		for _, s := range ordinary {
			in := strings.ReplaceAll(s, " ", b)
			if got := FindInURL(in); got != nil {
				t.Errorf("FindInURL(%q) = %v, want none", in, got)
			}
		}
	}
}

// evasions are credentials disguised by a character a reader skips or
// folds, each as it was sent through the running server in issue 15
// (before, each passed the check): every one must be found, at its
// position in characters of the string as written.
func evasions() []findCase {
	gh := githubToken("ghp_", 21, 30)
	j := jwtHS256(22)
	cut := func(s, in string) string { return s[:len(s)/2] + in + s[len(s)/2:] }
	long := jwt(`{"alg":"RS256","typ":"JWT"}`, `{"sub":"`+rnd(27, digits, 10)+`","pad":"`+rnd(28, alphaNum, 600)+`"}`, rnd(29, base64URL, 342))
	wrap := func(s string, n int) string {
		var lines []string
		for ; len(s) > n; s = s[n:] {
			lines = append(lines, s[:n])
		}
		return strings.Join(append(lines, s), "\n")
	}
	return []findCase{
		found("a token with a line break inside is found", KindGitHubToken, "token ", cut(gh, "\n"), ""),
		found("a token with a CR LF inside is found", KindGitHubToken, "token ", cut(gh, "\r\n"), ""),
		found("a token with a line separator U+2028 inside is found", KindGitHubToken, "", cut(gh, "\u2028"), ""),
		found("a token with a braille pattern blank U+2800 inside is found", KindGitHubToken, "", cut(gh, "\u2800"), ""),
		found("a token with an ideographic space U+3000 inside is found", KindGitHubToken, "日本 ", cut(gh, "\u3000"), ""),
		found("a token with a no-break space inside is found", KindGitHubToken, "", cut(gh, "\u00a0"), ""),
		found("a token with a combining acute accent inside is found", KindGitHubToken, "", cut(gh, "\u0301"), ""),
		found("a token in fullwidth letters is found", KindGitHubToken, "ｔｏｋｅｎ ", fullwidth(gh), ""),
		found("an AWS key id in fullwidth letters is found", KindAWSAccessKeyID, "", fullwidth(awsKey("AKIA", 23)), ""),
		found("a JWT whose dots are %2E is found", KindJWT, "Bearer ", strings.ReplaceAll(j, ".", "%2E"), ""),
		found("a JWT whose dots are fullwidth full stops U+FF0E is found", KindJWT, "", strings.ReplaceAll(j, ".", "．"), ""),
		found("a token broken by a line break and glued to words by others is found", KindGitHubToken, "see\n", cut(gh, "\n"), "\nthanks"),
		found("a token broken by many blanks is found", KindGitHubToken, "", strings.Join(strings.Split(gh, ""), "\u00a0"), ""),
		found("a token broken by a blank and glued to a word after another is found", KindGitHubToken, "", cut(gh, "\u2028"), "\u2028glued"),
		found("a token with a blank after each character past its 20th, glued to a word after, is found", KindGitHubToken, "",
			gh[:20]+strings.Join(strings.Split(gh[20:], ""), "\n"), "\nglued"),
		found("a private key header with no-break spaces is found", KindPrivateKey, "", "-----BEGIN\u00a0RSA\u00a0PRIVATE\u00a0KEY-----", ""),
		found("a private key header with no-break spaces and a line break in its dashes is found", KindPrivateKey, "",
			"-\n----BEGIN\u00a0RSA\u00a0PRIVATE\u00a0KEY-----", ""),
		found("a token whose first letter is an escape with a line separator inside is found", KindGitHubToken, "q=", "%\u202867"+gh[1:], ""),
		// Folding must not glue a credential to what was no letter of it.
		found("a token right after a fullwidth letter is found", KindGitHubToken, "ａ", gh, ""),
		found("a token right before a precomposed accented letter is found", KindGitHubToken, "", gh, "é"),
		found("a token right after a letter with a combining mark is found", KindGitHubToken, "e\u0301", gh, ""),
		found("a long JWT right after an accented letter is found", KindJWT, "é", long, ""),
		found("a long JWT wrapped at 76 columns after a line break is found", KindJWT, "Bearer\n", wrap(long, 76), "\n"),
	}
}

// urlEvasions are the evasions only a URL reading finds.
func urlEvasions() []findCase {
	ant := anthropicKey("api03-", 24)
	return []findCase{
		found("a URL query percent-encoded three times is found", KindAnthropicAPIKey, "https://example.com/?key=", encode(ant, 3), ""),
		found("a webhook URL query-escaped three times is found", KindSlackWebhook, "https://example.com/?hook=", queryEscape(slackWebhookURL(25), 3), ""),
		found("a token percent-encoded four times is found", KindGitHubToken, "https://example.com/?t=", encode(githubToken("gho_", 26, 30), 4), "&u=1"),
	}
}

func TestEvasionsAreFound(t *testing.T) {
	for _, c := range evasions() {
		t.Run(c.name, func(t *testing.T) {
			if got := Find(c.in); !slices.Equal(got, c.want) {
				t.Errorf("Find(%q) = %v, want %v", c.in, got, c.want)
			}
			if got := Find(Mask(c.in, c.want)); got != nil {
				t.Errorf("Find(Mask(%q)) = %v, want none", c.in, got)
			}
		})
	}
	for _, c := range append(evasions(), urlEvasions()...) {
		t.Run("in a URL, "+c.name, func(t *testing.T) {
			if got := FindInURL(c.in); !slices.Equal(got, c.want) {
				t.Errorf("FindInURL(%q) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}
