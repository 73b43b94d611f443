# rypsok — build, test, lint, benchmark. `make test` is what CI runs.
SHELL := /bin/bash
GO ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X github.com/rypsok/rypsok/egress/cli.version=$(VERSION) -X github.com/rypsok/rypsok/front/cli.version=$(VERSION)
BIN := bin
RUN_DIR ?= $(shell mktemp -d /tmp/rypsok-run.XXXXXX)
FUZZTIME ?= 5s

.PHONY: all build run test lint vet fmt-check staticcheck unit bench fuzz-smoke fuzz clean bench-compare

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/...

# run: the egress on a private socket, zero configuration (DNS servers from
# /etc/resolv.conf, the strictest profile). Ctrl-C stops it.
run: build
	@chmod 700 $(RUN_DIR)
	@echo "rypsok-egress listening on $(RUN_DIR)/egress.sock (Ctrl-C to stop)" >&2
	./$(BIN)/rypsok-egress --socket $(RUN_DIR)/egress.sock

# test: formatting, vet, staticcheck, then every test with the race detector.
test: lint unit

lint: fmt-check vet staticcheck

fmt-check:
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

unit:
	$(GO) test -race -count=1 -timeout 15m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 20x ./egress/proxy/

fuzz-smoke:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

fuzz:
	$(MAKE) fuzz-smoke FUZZTIME=5m

clean:
	rm -rf $(BIN)

# bench-compare: 5 MiB bodies fetched directly, through rypsok-egress and
# through stripe/smokescreen, over http and https, on loopback; prints a
# Markdown table for the README. testdata/egressbench is its own module, so
# smokescreen never enters this module's dependencies. About 30 s.
bench-compare:
	cd testdata/egressbench && $(GO) run . -rounds 5
