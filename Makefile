# rypsok — build, test, lint, benchmark. `make test` is what CI runs.
SHELL := /bin/bash
GO ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOIMPORTS := golang.org/x/tools/cmd/goimports@v0.49.0
MODULE := github.com/rypsok/rypsok
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X $(MODULE)/shared/version.stamp=$(VERSION)
BIN := bin
FUZZTIME ?= 3s
FUZZMINIMIZETIME ?= 5s

.PHONY: all build run test lint vet fmt-check staticcheck unit test-ts conformance release-check deploy-check image bench fuzz-smoke fuzz clean bench-compare coldstart extract-score report

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/...

# install: both binaries into $(go env GOPATH)/bin (or GOBIN), built as
# `build` builds them, from this clone: what works where the module path
# is not published yet. rypsok finds rypsok-egress beside itself.
.PHONY: install
install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/...

# run: rypsok serving MCP on stdio with zero configuration (it starts its
# own rypsok-egress). End of input or Ctrl-C stops it. Its stdout is the
# MCP channel, which carries MCP messages only, so nothing of make's may
# reach it: no recipe line is echoed (@), and the build, a make of its
# own, writes whatever it prints to stderr. (make itself still prints
# "Entering directory" on stdout under -C or inside another make: a host
# runs bin/rypsok serve, not make.)
run:
	@$(MAKE) --no-print-directory build >&2
	@exec $(BIN)/rypsok serve

# test: formatting, vet, staticcheck, every Go test with the race detector,
# then the TypeScript SDK's client against the built binaries, then the MCP
# conformance suite against the HTTP transport, the release checks, the
# Kubernetes manifests' checks, and each canonical fuzz target for 3 s.
test: lint unit test-ts conformance release-check deploy-check fuzz-smoke

lint: fmt-check vet staticcheck

# fmt-check: gofmt, then goimports with this module's imports in a group
# of their own after the third-party ones (standard library, third party,
# rypsok), as every file writes them.
fmt-check:
	@files=$$(git ls-files --cached --others --exclude-standard '*.go'); \
	out=$$(gofmt -l $$files); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi; \
	out=$$($(GO) run $(GOIMPORTS) -local $(MODULE) -l $$files); \
	if [ -n "$$out" ]; then echo "goimports needed (go run $(GOIMPORTS) -local $(MODULE) -w FILE):"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

unit:
	$(GO) test -race -count=1 -timeout 15m ./...

# test-ts: bin/rypsok serve driven over stdio by the TypeScript MCP SDK's
# client (@modelcontextprotocol/sdk, pinned in testdata/mcp-ts/package-lock.json),
# with [service] structured_content true and false.
MCP_TS := testdata/mcp-ts

$(MCP_TS)/node_modules: $(MCP_TS)/package.json $(MCP_TS)/package-lock.json
	cd $(MCP_TS) && npm ci --no-audit --no-fund --silent
	@touch $@

test-ts: build $(MCP_TS)/node_modules
	cd $(MCP_TS) && RYPSOK_BIN=$(CURDIR)/$(BIN) node --test

# conformance: bin/rypsok serve --transport http on a free loopback port,
# tested by the MCP conformance suite (@modelcontextprotocol/conformance,
# pinned in testdata/conformance/package-lock.json) on the scenarios of a
# server with tools only; see testdata/conformance/run.mjs.
CONFORMANCE := testdata/conformance

$(CONFORMANCE)/node_modules: $(CONFORMANCE)/package.json $(CONFORMANCE)/package-lock.json
	cd $(CONFORMANCE) && npm ci --no-audit --no-fund --silent
	@touch $@

conformance: build $(CONFORMANCE)/node_modules
	cd $(CONFORMANCE) && RYPSOK_BIN=$(CURDIR)/$(BIN) node run.mjs

# release-check: go mod verify, tidy and exact versions, npm tools pinned,
# two builds from checkouts at different paths byte-identical, the version
# stamped (testdata/release/check.sh). About 15 s.
release-check:
	GO=$(GO) bash testdata/release/check.sh

# deploy-check: deploy/kubernetes's manifests decoded strictly into the
# Kubernetes API types (k8s.io/api), the pod's invariants, and their
# embedded configurations parsed by rypsok's own loaders. It is a module
# of its own, so that k8s.io/api never enters this module's dependencies;
# its modules are downloaded here (CI's `go mod download` is the root's),
# and -mod=mod lets it follow a dependency added to the root module (it
# replaces github.com/rypsok/rypsok with ../..) without a manual tidy.
deploy-check:
	cd deploy/kubernetes && $(GO) mod download && $(GO) vet -mod=mod ./... && $(GO) test -mod=mod -count=1 ./...

# image: the two container images (Dockerfile), with docker or podman,
# tagged $(IMAGE_REPO)/rypsok:$(VERSION) and $(IMAGE_REPO)/rypsok-egress:$(VERSION).
IMAGE_REPO ?= ghcr.io/rypsok
CONTAINER_TOOL ?= $(shell command -v docker 2>/dev/null || command -v podman 2>/dev/null)

image:
	@if [ -z "$(CONTAINER_TOOL)" ]; then echo "make image needs docker or podman (or CONTAINER_TOOL=...)" >&2; exit 1; fi
	$(CONTAINER_TOOL) build --target rypsok-egress --build-arg VERSION=$(VERSION) -t $(IMAGE_REPO)/rypsok-egress:$(VERSION) .
	$(CONTAINER_TOOL) build --target rypsok --build-arg VERSION=$(VERSION) -t $(IMAGE_REPO)/rypsok:$(VERSION) .

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 20x ./egress/proxy/

# fuzz-smoke: the fifteen canonical fuzz targets of REQ-SEC-023 (fuzz/)
# for FUZZTIME each, in make test. fuzz: every fuzz target of every
# package (fuzz/ and the packages' own) for five minutes each. A package
# whose tests do not build fails the target rather than being skipped.
# Each new interesting input is minimized for at most FUZZMINIMIZETIME
# (Go's default, 60 s, would spend a short run of a slow target
# minimizing). Go 1.26's fuzzing coordinator can report a bare "context
# deadline exceeded" as the run's time ends, with no failing input, when
# a loaded machine delays a worker (golang/go#75804, fixed in Go 1.27):
# such a run is made once more; any run that writes a failing input, or
# fails otherwise, fails the target.
FUZZPKGS ?= ./fuzz/
fuzz-smoke:
	@set -eo pipefail; log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for pkg in $$($(GO) list $(FUZZPKGS)); do \
	  targets=$$($(GO) test -list '^Fuzz' $$pkg | { grep '^Fuzz' || true; }); \
	  for f in $$targets; do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    run() { $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg 2>&1 | tee $$log; }; \
	    if ! run; then \
	      if grep -qx '    context deadline exceeded' $$log && ! grep -q 'Failing input written' $$log; then \
	        echo "fuzz $$f: the coordinator's end-of-run race (golang/go#75804), no failing input: once more"; \
	        run; \
	      else exit 1; fi; \
	    fi; \
	  done; \
	done

fuzz:
	$(MAKE) fuzz-smoke FUZZPKGS=./... FUZZTIME=5m

clean:
	rm -rf $(BIN)

# bench-compare: 5 MiB bodies fetched directly, through rypsok-egress and
# through stripe/smokescreen, over http and https, on loopback; prints a
# Markdown table for docs/performance.md. testdata/egressbench is its own module, so
# smokescreen never enters this module's dependencies. About 30 s.
bench-compare:
	cd testdata/egressbench && $(GO) run . -rounds 5

# coldstart: spawn until initialize is answered, median over 50 runs, for
# rypsok serve (its egress start included) beside a minimal go-sdk server
# with one tool; prints a Markdown table for docs/performance.md.
# testdata/coldstart is its own module.
coldstart: build
	cd testdata/coldstart && $(GO) run . -rypsok ../../bin/rypsok -n 50

# report: the figures docs/performance.md quotes, in one run (about 3 min): cold
# start, per-search overhead, egress throughput and RSS beside smokescreen,
# extraction pages/s and 5 MiB peak RSS (when the dev sets are beside the
# repository), and peak RSS of both processes under load.
report: build
	@echo "== cold start"; cd testdata/coldstart && $(GO) run . -rypsok ../../bin/rypsok -n 50
	@echo "== per-search overhead (two fake engines, 10 results each)"; \
	$(GO) test -run '^$$' -bench 'Search$$|Direct$$' -benchtime 300x ./front/search/ | grep -E '^Benchmark'
	@echo "== egress throughput and RSS"; cd testdata/egressbench && $(GO) run . -rounds 3
	@echo "== extraction"; if [ -d "$(EXTRACT_FIXTURES)" ]; then \
	  out=$$(mktemp -d); $(GO) test -tags quality -count=1 -v -run 'TestQuality|TestPeakRSS5MiB' ./front/extract/ -args -out $$out -fixtures $(EXTRACT_FIXTURES) | grep -E 'pages/s|RSS'; rm -rf $$out; \
	else echo "(the dev sets are not at $(EXTRACT_FIXTURES))"; fi
	@echo "== peak RSS under load (4 concurrent 5 MiB fetches, a search burst)"; \
	$(GO) test -count=1 -v -run TestResourcesUnderLoad ./cmd/rypsok/ | grep 'peak RSS'

# Extraction quality on the two extraction dev sets: shingle F1 (Mozilla)
# and snippet F1 (trafilatura), rypsok beside go-trafilatura (a reference
# run in the test only, never in the product), pages per second for both,
# the peak RSS of the largest dev-set page for both (each in its own
# process) and of a synthetic 5 MiB page, and rypsok's worst pages.
# EXTRACT_FLAGS=-extractor=readability scores the plain readability +
# html-to-markdown pipeline instead of rypsok. EXTRACT_FIXTURES is where
# the dev sets are: third-party web pages with their ground truth and
# scorers, usable as test data only, so kept beside the repository and not
# part of it. Without them extract-score fails and report skips the
# extraction figures.
EXTRACT_FIXTURES ?= $(abspath ../shared/fixtures/extraction)
EXTRACT_WORST ?= 15
extract-score:
	@out=$$(mktemp -d) && mkdir $$out/ref && \
	$(GO) test -tags quality -count=1 -v -run TestQuality ./front/extract/ -args -out $$out -fixtures $(EXTRACT_FIXTURES) $(EXTRACT_FLAGS) | grep -E 'pages|FAIL' ; \
	$(GO) test -tags quality -count=1 -v -run TestQuality ./front/extract/ -args -out $$out/ref -fixtures $(EXTRACT_FIXTURES) -extractor=go-trafilatura | grep -E 'pages|FAIL' ; \
	$(GO) test -tags quality -count=1 -v -run 'TestPeakRSS$$' ./front/extract/ -args -fixtures $(EXTRACT_FIXTURES) $(EXTRACT_FLAGS) | grep -E 'RSS|FAIL' ; \
	$(GO) test -tags quality -count=1 -v -run 'TestPeakRSS$$' ./front/extract/ -args -fixtures $(EXTRACT_FIXTURES) -extractor=go-trafilatura | grep -E 'RSS|FAIL' ; \
	$(GO) test -tags quality -count=1 -v -run TestPeakRSS5MiB ./front/extract/ | grep -E 'RSS|FAIL' ; \
	for who in rypsok:$$out go-trafilatura:$$out/ref; do \
	  echo "== $${who%%:*}: mozilla (shingle F1, --markdown)" && \
	  python3 $(EXTRACT_FIXTURES)/score.py --truth $(EXTRACT_FIXTURES)/ground-truth.json --pred $${who#*:}/mozilla.json --markdown | grep -E 'precision|recall|F1' && \
	  echo "== $${who%%:*}: trafilatura (snippets, --markdown)" && \
	  python3 $(EXTRACT_FIXTURES)/trafilatura/score_snippets.py --cases $(EXTRACT_FIXTURES)/trafilatura/cases.json --pred $${who#*:}/trafilatura.json --markdown | grep -E 'snippets|precision|recall|F1' ; \
	done ; \
	echo "== rypsok's worst pages: mozilla" && \
	python3 $(EXTRACT_FIXTURES)/score.py --truth $(EXTRACT_FIXTURES)/ground-truth.json --pred $$out/mozilla.json --markdown --worst $(EXTRACT_WORST) | sed -n '/^ *F1  *P/,$$p' ; \
	echo "== rypsok's worst pages: trafilatura" && \
	python3 $(EXTRACT_FIXTURES)/trafilatura/score_snippets.py --cases $(EXTRACT_FIXTURES)/trafilatura/cases.json --pred $$out/trafilatura.json --markdown --worst $(EXTRACT_WORST) | sed -n '/^wrong/,$$p' ; \
	rm -rf $$out
