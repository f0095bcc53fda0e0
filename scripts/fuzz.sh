#!/usr/bin/env bash
# Builds the libFuzzer target (Fuzz/FuzzLoader.swift over ICalAdapter and
# AgendaCore, with AddressSanitizer) and runs it for SECONDS seconds on a
# corpus seeded from Fixtures/ and ../shared/corpus (copied to a temporary
# folder: nothing is written into the repository).
#
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   scripts/fuzz.sh build            only build
#   FUZZ_CORPUS=dir                  keep the corpus in dir (reused across runs)
#   FUZZ_ARTIFACTS=dir               where crashes and timeouts go (default .build/fuzz/artifacts)
#
# Exit status: 0 when the run ended without a finding, libFuzzer's status otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=.build/fuzz
BIN=$OUT/fuzz-loader
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$OUT"

build() {
    local flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6 -use-ld=lld)
    local icalflags
    icalflags=$(pkg-config --cflags-only-I libical 2>/dev/null || true)
    # AgendaCore as its own module, as SwiftPM builds it ...
    "$SWIFTC" "${flags[@]}" -module-name AgendaCore -emit-module -emit-module-path "$OUT/AgendaCore.swiftmodule" \
        -emit-library -static -o "$OUT/libAgendaCore.a" Sources/AgendaCore/*.swift
    # ... then ICalAdapter with the fuzz entry point in it, seeing CLibical
    # through its module map and AgendaCore through the module just built.
    "$SWIFTC" "${flags[@]}" -module-name ICalAdapter -I "$OUT" \
        -Xcc -fmodule-map-file=Sources/CLibical/module.modulemap ${icalflags:+-Xcc $icalflags} \
        Sources/ICalAdapter/*.swift Fuzz/FuzzLoader.swift \
        -L "$OUT" -lAgendaCore -lical -o "$BIN"
}

newer() {  # whether any source is newer than the binary
    [ ! -x "$BIN" ] && return 0
    [ -n "$(find Sources/AgendaCore Sources/ICalAdapter Fuzz scripts/fuzz.sh -newer "$BIN" -print -quit)" ]
}

if [ "${1:-}" = build ]; then
    build
    exit 0
fi
SECONDS_TO_RUN=${1:-60}
shift || true
if newer; then echo "fuzz: building $BIN"; build; fi

CORPUS=${FUZZ_CORPUS:-}
if [ -z "$CORPUS" ]; then
    CORPUS=$(mktemp -d "${TMPDIR:-/tmp}/ics-agenda-fuzz.XXXXXX")
    trap 'rm -rf "$CORPUS"' EXIT
fi
mkdir -p "$CORPUS"
# Seeds: every fixture and every corpus calendar (each copied once, by content).
find Fixtures ../shared/corpus -type f \( -name '*.ics' -o -name '*.ical' -o -name '*.html' \) -size -64k 2>/dev/null |
    while read -r f; do cp "$f" "$CORPUS/seed-$(sha1sum < "$f" | cut -c1-16)"; done
ARTIFACTS=${FUZZ_ARTIFACTS:-$OUT/artifacts}
mkdir -p "$ARTIFACTS"
echo "fuzz: $(ls "$CORPUS" | wc -l) inputs in $CORPUS, $SECONDS_TO_RUN s, findings in $ARTIFACTS/"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$BIN" "$CORPUS" \
    -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 "$@"
