package secrets

import (
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
