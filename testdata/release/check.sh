#!/usr/bin/env bash
# Release checks (REQ-SEC-020, REQ-TEST-019), run by `make release-check`
# inside `make test`: the module's dependencies verified and pinned, the
# JavaScript test tools pinned, two builds from two checkouts at different
# paths byte-identical, and the version stamped into both binaries.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
fail() { echo "release-check: $*" >&2; exit 1; }

echo "== go mod verify"
$GO mod verify

echo "== go.mod and go.sum are tidy, without replace directives"
$GO mod tidy -diff >/dev/null || fail "go.mod/go.sum are not tidy (go mod tidy -diff)"
if grep -nE '^[[:space:]]*replace\b' go.mod; then fail "go.mod has replace directives"; fi

echo "== every dependency at an exact version"
# go list -m all prints "path version"; a version must be a semver tag or a
# pseudo-version, never empty (a local directory) or a query.
$GO list -m -f '{{if not .Main}}{{.Path}} {{.Version}}{{end}}' all | while read -r path version; do
  [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "$path has no exact version ($version)"
done
grep -q 'staticcheck@v[0-9]' Makefile || fail "staticcheck is not pinned in the Makefile"

echo "== npm test tools pinned exactly, with lock files"
for dir in testdata/mcp-ts testdata/conformance; do
  [ -f "$dir/package-lock.json" ] || fail "$dir has no package-lock.json"
  node -e '
    const p = require(process.argv[1] + "/package.json");
    const all = Object.assign({}, p.dependencies, p.devDependencies);
    for (const [n, v] of Object.entries(all)) {
      if (!/^\d+\.\d+\.\d+$/.test(v)) { console.error(n + "@" + v + " is not an exact version"); process.exit(1); }
    }' "$PWD/$dir" || fail "$dir/package.json has a version range"
done

echo "== reproducible builds: two checkouts at different paths, same bytes"
version=release-check-$(git rev-parse --short HEAD 2>/dev/null || echo src)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tree in a b/deeper; do
  mkdir -p "$work/$tree/src"
  git ls-files -z --cached --others --exclude-standard | grep -zv '^testdata/.*/node_modules/' |
    xargs -0 tar -cf - | tar -xf - -C "$work/$tree/src"
  (cd "$work/$tree/src" && CGO_ENABLED=0 $GO build -trimpath \
    -ldflags "-s -w -X github.com/rypsok/rypsok/shared/version.stamp=$version" \
    -o "$work/$tree/bin/" ./cmd/rypsok ./cmd/rypsok-egress)
done
for b in rypsok rypsok-egress; do
  a=$(sha256sum "$work/a/bin/$b" | cut -d' ' -f1)
  c=$(sha256sum "$work/b/deeper/bin/$b" | cut -d' ' -f1)
  [ "$a" = "$c" ] || fail "$b differs between two builds ($a, $c)"
  echo "$b $a"
done

echo "== the version is stamped"
got=$("$work/a/bin/rypsok" --version)
[ "$got" = "rypsok $version" ] || fail "rypsok --version says '$got', want 'rypsok $version'"
got=$("$work/a/bin/rypsok-egress" --version)
[[ "$got" == *"$version"* ]] || fail "rypsok-egress --version says '$got', want it to name $version"
echo "release-check: ok"
