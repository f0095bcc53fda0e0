# A thin layer over SwiftPM. `make help` lists the targets.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN := .build/release/ics-agenda
ARGS ?= --now 2025-03-01T08:00:00+01:00 --tz Europe/Berlin Fixtures/sample.ics

.PHONY: help setup build release test run install clean bench conformance

help:
	@echo "make setup        install libical-dev and tzdata if missing (apt), then build"
	@echo "make build        debug build"
	@echo "make test         unit and golden tests (swift test)"
	@echo "make run ARGS=... run the release binary (default: the sample in Fixtures/)"
	@echo "make install PREFIX=/usr/local   install the binary"
	@echo "make bench        benchmark against the naive libical floor (docs/PERFORMANCE.md)"
	@echo "make conformance  compare with the reference oracle on ../shared/corpus"
	@echo "make clean        remove build output"

# libical's headers and pkg-config file come from Debian's libical-dev.
setup:
	@if ! pkg-config --exists libical 2>/dev/null || [ ! -d /usr/share/zoneinfo/Europe ]; then \
		echo "Installing libical-dev and tzdata with apt-get"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y libical-dev tzdata pkg-config; \
	fi
	$(SWIFT) build -c release

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test:
	$(SWIFT) test

run:
	@$(SWIFT) build -c release -q
	@$(BIN) $(ARGS)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ics-agenda

bench: release
	python3 scripts/bench.py --binary $(BIN) --write docs/PERFORMANCE.md

conformance: release
	python3 scripts/conformance.py --binary $(BIN)

clean:
	$(SWIFT) package clean
	rm -rf .build bench-out
