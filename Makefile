# A thin layer over SwiftPM. `make help` lists the targets.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN := .build/release/ics-agenda
# The release binary carries the Swift runtime and Foundation inside it: it
# runs where no Swift is installed (libical3 and tzdata are all it needs)
# and starts in about 8 ms instead of 13, since the loader has far fewer
# shared objects to relocate (docs/PERFORMANCE.md, Start-up).
RELEASE := -c release --static-swift-stdlib
# glibc's linker note on mktemp(3), which the toolchain's static Foundation
# calls (Data+Writing.swift.o) and no line of ours: left out of the release
# build's output, which has nothing else to say when all is well.
SHELL := /bin/bash
RELEASE_BUILD = set -o pipefail; $(SWIFT) build $(RELEASE) 2>&1 | { grep -v "the use of .mktemp. is dangerous" || true; }
ARGS ?= --now 2025-03-01T08:00:00+01:00 --tz Europe/Berlin Fixtures/sample.ics

.PHONY: help setup build release test test-asan test-asan-c fuzz run install deb clean bench conformance window-check differential check-all oracle-venv

help:
	@echo "make setup        install libical-dev, libcurl and tzdata if missing (apt), then build"
	@echo "make build        debug build"
	@echo "make test         unit and golden tests (swift test); first puts Radicale into .venv-servers (pip)"
	@echo "make test-asan    the same tests built with AddressSanitizer"
	@echo "make test-asan-c  AddressSanitizer over the suites that run C code (CI's size)"
	@echo "make check-all    every check CI runs, each at full size (about an hour on 2 cores)"
	@echo "make fuzz SECONDS=N  fuzz the loader, then the command line, N seconds each (default 60)"
	@echo "make run ARGS=... run the release binary (default: the sample in Fixtures/)"
	@echo "make install PREFIX=/usr/local   install the binary, man page and bash/zsh/fish completions"
	@echo "make deb          a Debian package (ics-agenda_VERSION_ARCH.deb) of the same, built with dpkg-deb"
	@echo "make bench        benchmark against the naive libical floor (docs/PERFORMANCE.md)"
	@echo "make conformance  compare with the reference oracle on the corpus of other projects' calendars"
	@echo "make window-check the agenda of a day is the same in any window (corpus and fixtures)"
	@echo "make differential random recurring components against the oracle (needs .venv-oracle)"
	@echo "make clean        remove build output"

# libical's headers and pkg-config file come from Debian's libical-dev,
# libcurl's (the HTTP client of URL calendars) from libcurl4-openssl-dev,
# RE2's (--grep's linear-time regular expressions) from libre2-dev,
# libxml2's (CalDAV's multistatus answers) from libxml2-dev.
setup:
	@if ! pkg-config --exists libical libcurl re2 libxml-2.0 2>/dev/null || [ ! -d /usr/share/zoneinfo/Europe ]; then \
		echo "Installing libical-dev, libcurl4-openssl-dev, libre2-dev, libxml2-dev and tzdata with apt-get"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y libical-dev libcurl4-openssl-dev libre2-dev libxml2-dev tzdata pkg-config; \
	fi
	@$(RELEASE_BUILD)

build:
	$(SWIFT) build

release:
	@$(RELEASE_BUILD)

# The subscription tests read from Radicale, a real CalDAV server, which
# they start on loopback with this Python (the fault server needs only
# python3 and openssl).
SERVERS_PYTHON := .venv-servers/bin/python
$(SERVERS_PYTHON): scripts/servers-requirements.txt
	python3 -m venv .venv-servers
	.venv-servers/bin/pip install --quiet -r scripts/servers-requirements.txt
	@touch $@

# The reference oracle (Python icalendar and recurring-ical-events) that the
# differential and conformance checks compare with, when its requirements
# are beside the repository (../shared/tools); without them those checks
# say they are skipped.
ORACLE_PYTHON := .venv-oracle/bin/python
ORACLE_REQUIREMENTS := ../shared/tools/requirements-oracle.txt
oracle-venv:
	@if [ -f $(ORACLE_REQUIREMENTS) ] && [ ! -x $(ORACLE_PYTHON) ]; then \
		python3 -m venv .venv-oracle && .venv-oracle/bin/pip install --quiet -r $(ORACLE_REQUIREMENTS); fi

# The command-line tests run the release binary, the one users run: the
# debug one spends most of each of its thousands of runs in ArgumentParser's
# debug-only checks of the option declarations (4 times the CPU a run). `swift test`
# alone, and make check-all, run the debug one.
test: $(SERVERS_PYTHON)
	@$(RELEASE_BUILD)
	ICS_AGENDA_BIN=$(BIN) $(SWIFT) test

# A build of its own (.build-asan), so that the normal one is not rebuilt.
# LeakSanitizer is on, in the test process and in every ics-agenda the CLI
# tests run (a leak there changes its exit status, and the test fails);
# scripts/lsan.supp names what libraries keep until exit.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0
test-asan: $(SERVERS_PYTHON)
	$(ASAN_ENV) $(SWIFT) test --sanitize=address --scratch-path .build-asan

# CI's size: the suites whose code reaches libical (the loader's, the
# engine's, the damaged and hostile inputs'), and the golden CLI cases and
# bad-input runs, whose binary is the sanitized one too.
ASAN_SUITES ?= ICalAdapterTests|GoldenTests|BadInputTests|HostileCLITests|VdirTests|SubscriptionTests
test-asan-c: $(SERVERS_PYTHON)
	$(ASAN_ENV) $(SWIFT) test --sanitize=address --scratch-path .build-asan --filter '$(ASAN_SUITES)'

# libFuzzer, SECONDS each: over CalendarLoader and the formatters
# (Fuzz/FuzzLoader.swift), seeded with Fixtures/ and the corpus of other
# projects' calendars beside the repository when present; then over the
# command line's options, every subcommand and format (Fuzz/FuzzCommandLine.swift),
# seeded with the golden cases. Findings go to .build/fuzz/artifacts-TARGET/.
SECONDS ?= 60
fuzz:
	FUZZ_TARGET=loader scripts/fuzz.sh $(SECONDS)
	FUZZ_TARGET=command-line scripts/fuzz.sh $(SECONDS)

run:
	@$(SWIFT) build $(RELEASE) -q
	@$(BIN) $(ARGS)

# The man page is written by hand (docs/ics-agenda.1, mdoc); the completions
# come from the argument parser of the binary installed, the static one.
ZSH_COMPLETIONS ?= share/zsh/site-functions

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/$(ZSH_COMPLETIONS) \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ics-agenda
	install -m 644 docs/ics-agenda.1 $(DESTDIR)$(PREFIX)/share/man/man1/ics-agenda.1
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ics-agenda
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETIONS)/_ics-agenda
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ics-agenda.fish

deb: release
	scripts/deb.sh

bench: release
	python3 scripts/bench.py --binary $(BIN) --profile --write docs/PERFORMANCE.md

conformance: release oracle-venv
	python3 scripts/conformance.py --binary $(BIN) --min-agreement 88 --write .build/conformance.md

window-check: build
	python3 scripts/window_independence.py --binary .build/debug/ics-agenda

differential: build oracle-venv
	python3 scripts/differential.py --binary .build/debug/ics-agenda --seeds 300

# Every check of .ci/run at full size: the whole corpus for the window
# check, 1,000 differential seeds, every suite under ASan, 10 minutes of
# each fuzz target. Run it before calling an issue that touches those areas done.
check-all: build $(SERVERS_PYTHON) oracle-venv
	$(SWIFT) build --build-tests
	ICS_AGENDA_FULL_CHECKS=1 $(SWIFT) test --skip-build
	python3 scripts/window_independence.py --binary .build/debug/ics-agenda
	python3 scripts/differential.py --binary .build/debug/ics-agenda --seeds 1000
	python3 scripts/conformance.py --binary .build/debug/ics-agenda --min-agreement 88 --write .build/conformance.md
	$(MAKE) test-asan
	$(MAKE) fuzz SECONDS=600

clean:
	$(SWIFT) package clean
	rm -rf .build .build-asan bench-out ics-agenda_*.deb
