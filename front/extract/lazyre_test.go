package extract

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// packageFiles parses the package's non-test source files.
func packageFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	return files
}

// TestLazyRegexpsCompile compiles the source of every lazyRegexp of the
// package: the expressions compile on first use, so without this test a
// malformed one would fail the first page read instead of the tests.
func TestLazyRegexpsCompile(t *testing.T) {
	n := 0
	for name, f := range packageFiles(t) {
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "lazyRegexp" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: lazyRegexp of a non-literal; this test cannot compile it", name)
				return true
			}
			src, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := regexp.Compile(src); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			n++
			return true
		})
	}
	if n == 0 {
		t.Error("found no lazyRegexp call: the test reads nothing")
	}
}

// TestNoRegexpCompiledAtStartUp checks that no package-level variable
// compiles a regular expression when the package is initialized: a
// process that only searches never compiles the extractor's.
func TestNoRegexpCompiledAtStartUp(t *testing.T) {
	for name, f := range packageFiles(t) {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			ast.Inspect(gen, func(node ast.Node) bool {
				if _, ok := node.(*ast.FuncLit); ok {
					return false // runs when called, not at start-up
				}
				sel, ok := node.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "regexp" && strings.Contains(sel.Sel.Name, "Compile") {
					t.Errorf("%s: package-level regexp.%s; use lazyRegexp", name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

func TestLazyRegexpIsCompiledOnce(t *testing.T) {
	rx := lazyRegexp(`a+`)
	first := rx()
	if second := rx(); first != second {
		t.Error("a second call compiled the expression again")
	}
	if !first.MatchString("baab") {
		t.Error("the expression does not match")
	}
}

// TestKeywordGates holds an example of every alternative of each gated
// expression: the expression matches it, and the gate lets it through.
func TestKeywordGates(t *testing.T) {
	cases := []struct {
		name    string
		gate    keywordGate
		rx      func() *regexp.Regexp
		matches []string
	}{
		{"pitch", pitchGate, rxPitch, []string{
			"To view the full story, please subscribe", "Already a subscriber? Log in", "Subscribers only",
			"Please log in to comment", "Support independent journalism", "Become a member today",
			"If you enjoyed this, share it", "Would you consider supporting us?", "Schon Abonnent?",
			"Jetzt abonnieren", "Únete a nuestra comunidad", "Hazte socio", "Apoya el periodismo",
			"Déjà abonné ?", "Abonnez-vous", "Zostań patronem",
			"A flexible plan you can cancel anytime.", "We accept credit card, Apple Pay and Google Pay.",
			"Join now or renew to get:", "You get unlimited digital access to our reporting.",
			"Unlimited access to all our journalism",
		}},
		{"cookie notice", cookieGate, rxCookieNotice, []string{
			"This website uses cookies to improve your experience.", "We use cookies.",
			"Diese Webseite verwendet Cookies.", "Wir verwenden Cookies, die …", "Utilizamos cookies propias.",
			"Este sitio web utiliza cookies.", "Nous utilisons des cookies.", "Ce site utilise des cookies.",
			"Używamy plików cookies.", "Questo sito utilizza i cookie.",
		}},
		{"disclosure", disclosureGate, rxDisclosure, []string{
			"*Werbung", "Anzeige: dieser Text", "This post contains affiliate links.",
			"This article contains references to products from our advertisers.", "This review includes paid placements",
			"We may receive compensation when you click.", "We may earn a small commission.",
			"This site uses affiliate links", "Affiliate links earn us a commission.",
			"Dieser Beitrag enthält Werbung.", "Der Artikel enthält Werbelinks.", "Dieser Post enthält Provisionslinks.",
			"Bei den Verlinkungen handelt es sich um Affiliate Links", "Die Links sind Affiliate-Links.",
			"Este artículo contiene enlaces de afiliado.", "Cet article contient des liens affiliés.",
			"Cet article contient des liens sponsorisés.",
		}},
	}
	for _, tc := range cases {
		for _, m := range tc.matches {
			if !tc.rx().MatchString(m) {
				t.Errorf("%s: expression does not match %q", tc.name, m)
			}
			if !tc.gate.admits(strings.ToLower(m)) {
				t.Errorf("%s: gate refuses %q", tc.name, m)
			}
		}
	}
}
