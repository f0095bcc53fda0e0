#!/usr/bin/env bash
# Builds a libFuzzer target (with AddressSanitizer) and runs it for SECONDS
# seconds on a corpus in a temporary folder (nothing is written into the
# repository):
#
#   loader        Fuzz/FuzzLoader.swift: calendar bytes through ICalAdapter
#                 and AgendaCore, every formatter; seeded from Fixtures/ and
#                 ../shared/corpus.
#   command-line  Fuzz/FuzzCommandLine.swift: arguments through the whole
#                 command (ArgumentParser, settings, every subcommand and
#                 format) on fixed fixtures; seeded from Fixtures/golden.tsv.
#
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   scripts/fuzz.sh build            only build
#   FUZZ_TARGET=command-line         the target (default loader)
#   FUZZ_CORPUS=dir                  keep the corpus in dir (reused across runs)
#   FUZZ_ARTIFACTS=dir               where crashes and timeouts go (default .build/fuzz/artifacts-TARGET)
#   FUZZ_TIMEOUT=N                   an input that runs longer is a finding (default 15 s: the bar is
#                                    10 s unsanitized, and AddressSanitizer on a busy machine is slower;
#                                    a corpus calendar of 100,000 SECONDLY rows took 6 s at 5)
#   FUZZ_CORPUS_EVERY=N              seed the loader with every fixture and every Nth corpus
#                                    calendar, sorted by path (CI: libFuzzer first runs every
#                                    seed, about 16 a second under ASan); default 1, all
#
# Exit status: 0 when the run ended without a finding, libFuzzer's status otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=${FUZZ_TARGET:-loader}
case "$TARGET" in
    loader | command-line) ;;
    *) echo "fuzz: FUZZ_TARGET is loader or command-line, not $TARGET" >&2; exit 64 ;;
esac
OUT=.build/fuzz
BIN=$OUT/fuzz-$TARGET
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$OUT"

swift_files() {  # a target's sources, in its folders by stage (no spaces in their names)
    find "$1" -name '*.swift' | sort
}

build() {
    # A static library is an archive that swiftc adds members to: one of a
    # file since renamed would stay in it and clash. Each is made anew.
    rm -f "$OUT"/libICalAdapter.a "$OUT"/libSubscriptions.a "$OUT"/libAgendaSystem.a "$OUT"/libSystemPackage.a "$OUT"/libArgumentParser.a "$OUT"/libArgumentParserToolInfo.a
    # -package-name: what SwiftPM gives every module of the package, so that `package` declarations are seen across them.
    local flags=(-O -g -parse-as-library -sanitize=fuzzer,address -use-ld=lld -package-name ics_agenda)
    local icalflags
    icalflags=$(pkg-config --cflags-only-I libical 2>/dev/null || true)
    local clibical=(-Xcc -fmodule-map-file=Sources/CLibical/module.modulemap ${icalflags:+-Xcc $icalflags})
    # AgendaCore as its own module, as SwiftPM builds it (once for both
    # targets: the flags are the same) ...
    if [ ! -f "$OUT/libAgendaCore.a" ] || [ -n "$(find Sources/AgendaCore scripts/fuzz.sh -newer "$OUT/libAgendaCore.a" -print -quit)" ]; then
        rm -f "$OUT/libAgendaCore.a"
        "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name AgendaCore -emit-module -emit-module-path "$OUT/AgendaCore.swiftmodule" \
            -emit-library -static -o "$OUT/libAgendaCore.a" $(swift_files Sources/AgendaCore)
    fi
    if [ "$TARGET" = loader ]; then
        # ... then ICalAdapter with the fuzz entry point in it, seeing CLibical
        # through its module map and AgendaCore through the module just built.
        "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name ICalAdapter -I "$OUT" "${clibical[@]}" \
            $(swift_files Sources/ICalAdapter) Fuzz/FuzzLoader.swift \
            -L "$OUT" -lAgendaCore -lical -o "$BIN"
        return
    fi
    # ... ICalAdapter and ArgumentParser (from SwiftPM's checkout) as modules,
    # then the command's sources with the fuzz entry point, their @main
    # renamed so that libFuzzer's main is the program's.
    "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name ICalAdapter -I "$OUT" "${clibical[@]}" -emit-module \
        -emit-module-path "$OUT/ICalAdapter.swiftmodule" -emit-library -static -o "$OUT/libICalAdapter.a" $(swift_files Sources/ICalAdapter)
    [ -d .build/checkouts/swift-argument-parser ] || swift package resolve
    local parser=.build/checkouts/swift-argument-parser/Sources
    "$SWIFTC" "${flags[@]}" -swift-version 5 -module-name ArgumentParserToolInfo -emit-module \
        -emit-module-path "$OUT/ArgumentParserToolInfo.swiftmodule" -emit-library -static \
        -o "$OUT/libArgumentParserToolInfo.a" "$parser"/ArgumentParserToolInfo/*.swift
    local sources=()  # its folders have spaces in their names
    while IFS= read -r -d '' f; do sources+=("$f"); done < <(find "$parser/ArgumentParser" -name '*.swift' -print0)
    "$SWIFTC" "${flags[@]}" -swift-version 5 -module-name ArgumentParser -I "$OUT" -emit-module \
        -emit-module-path "$OUT/ArgumentParser.swiftmodule" -emit-library -static -o "$OUT/libArgumentParser.a" "${sources[@]}"
    # swift-system (SystemPackage) and its C shims, with the settings its
    # Package.swift gives them (SYSTEM_PACKAGE, Lifetimes, the availability
    # macros its sources name), then AgendaSystem over it.
    local system=.build/checkouts/swift-system/Sources
    [ -d "$system" ] || swift package resolve
    clang -O1 -g -fsanitize=address,fuzzer-no-link -I"$system/CSystem/include" -c "$system/CSystem/shims.c" -o "$OUT/csystem.o"
    local csystem=(-Xcc -fmodule-map-file="$system/CSystem/include/module.modulemap" -I "$system/CSystem/include")
    local available=()
    while IFS= read -r version; do
        available+=(-enable-experimental-feature "AvailabilityMacro=System $version:macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, visionOS 1.0")
    done < <(sed -n 's/^ *Available("\([0-9.]*\)".*/\1/p' .build/checkouts/swift-system/Package.swift)
    local systemfiles=()
    while IFS= read -r -d '' f; do systemfiles+=("$f"); done < <(find "$system/System" -name '*.swift' -print0 | sort -z)
    "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name SystemPackage "${csystem[@]}" -DSYSTEM_PACKAGE \
        -enable-experimental-feature Lifetimes "${available[@]}" -emit-module \
        -emit-module-path "$OUT/SystemPackage.swiftmodule" -emit-library -static -o "$OUT/libSystemPackage.a" "${systemfiles[@]}"
    "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name AgendaSystem -I "$OUT" "${csystem[@]}" -emit-module \
        -emit-module-path "$OUT/AgendaSystem.swiftmodule" -emit-library -static -o "$OUT/libAgendaSystem.a" $(swift_files Sources/AgendaSystem)
    # Subscriptions (URL calendars; libcurl opened through its C face): the
    # fuzzer's inputs name no URL, but the command is built whole.
    local ccurl=(-Xcc -fmodule-map-file=Sources/CCurl/include/module.modulemap)
    clang -O1 -g -fsanitize=address,fuzzer-no-link -ISources/CCurl/include -c Sources/CCurl/ccurl.c -o "$OUT/ccurl.o"
    # RE2's C face (--grep), compiled with the same sanitizers.
    local cre2=(-Xcc -fmodule-map-file=Sources/CRE2/include/module.modulemap)
    clang++ -std=c++17 -O1 -g -fsanitize=address,fuzzer-no-link -ISources/CRE2/include -c Sources/CRE2/cre2.cc -o "$OUT/cre2.o"
    # libxml2 (CalDAV's replies), as Package.swift finds it: pkg-config.
    local xmlflags
    xmlflags=$(pkg-config --cflags-only-I libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
    local clibxml2=(-Xcc -fmodule-map-file=Sources/CLibXML2/module.modulemap -Xcc $xmlflags)
    "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name Subscriptions -I "$OUT" "${clibical[@]}" "${ccurl[@]}" "${csystem[@]}" \
        "${clibxml2[@]}" -emit-module -emit-module-path "$OUT/Subscriptions.swiftmodule" -emit-library -static \
        -o "$OUT/libSubscriptions.a" $(swift_files Sources/Subscriptions)
    # The alarms' state (`ics-agenda alarms`).
    "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name Alarms -I "$OUT" "${csystem[@]}" -emit-module \
        -emit-module-path "$OUT/Alarms.swiftmodule" -emit-library -static -o "$OUT/libAlarms.a" $(swift_files Sources/Alarms)
    "$SWIFTC" "${flags[@]}" -swift-version 6 -module-name ics_agenda -I "$OUT" "${clibical[@]}" "${ccurl[@]}" "${cre2[@]}" "${csystem[@]}" \
        "${clibxml2[@]}" -Xfrontend -entry-point-function-name -Xfrontend ics_agenda_main \
        $(swift_files Sources/ics-agenda) Fuzz/FuzzCommandLine.swift "$OUT/cre2.o" "$OUT/ccurl.o" "$OUT/csystem.o" \
        -L "$OUT" -lSubscriptions -lAlarms -lAgendaSystem -lSystemPackage -lICalAdapter -lAgendaCore -lArgumentParser -lArgumentParserToolInfo \
        -lical -lre2 -lxml2 -ldl -lstdc++ -o "$BIN"
}

newer() {  # whether any source is newer than the binary
    [ ! -x "$BIN" ] && return 0
    [ -n "$(find Sources/AgendaCore Sources/ICalAdapter Sources/Subscriptions Sources/Alarms Sources/AgendaSystem Sources/ics-agenda Sources/CRE2 Sources/CCurl Fuzz scripts/fuzz.sh -newer "$BIN" -print -quit)" ]
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
DICT=()
if [ "$TARGET" = loader ]; then
    # Seeds: every fixture and every (or every Nth) corpus calendar, each copied once, by content.
    EVERY=${FUZZ_CORPUS_EVERY:-1}
    { find Fixtures -type f \( -name '*.ics' -o -name '*.ical' -o -name '*.html' \) -size -64k
      # (Without the shared corpus beside the repository, the fixtures alone.)
      find ../shared/corpus -type f \( -name '*.ics' -o -name '*.ical' -o -name '*.html' \) -size -64k 2>/dev/null | sort | awk -v n="$EVERY" 'NR % n == 0' || true
    } | while read -r f; do cp "$f" "$CORPUS/seed-$(sha1sum < "$f" | cut -c1-16)"; done
else
    # Seeds: each golden case's arguments (no environment words, files or
    # redirection), for each fixed calendar in turn; a dictionary of every
    # option and subcommand name and the words their values take.
    python3 - "$CORPUS" "$OUT/command-line.dict" <<'PY'
import hashlib, re, shlex, sys
from pathlib import Path
corpus, dictionary = Path(sys.argv[1]), Path(sys.argv[2])
cases = []
for line in Path("Fixtures/golden.tsv").read_text().splitlines():
    if not line.strip() or line.startswith("#") or "\t" not in line:
        continue
    words = shlex.split(line.split("\t", 1)[1])
    if "<" in words:
        words = words[:words.index("<")]
    words = [w for w in words if not re.match(r"^[A-Z_]+=", w) and "/" not in w and not w.endswith(".ics")]
    cases.append(words)
for n, words in enumerate(cases):
    data = bytes([n % 8]) + b"\0".join(w.encode() for w in words)
    (corpus / f"seed-{hashlib.sha1(data).hexdigest()[:16]}").write_bytes(data)
tokens = set()
for path in sorted(Path("Sources/ics-agenda").rglob("*.swift")) + [Path("docs/ics-agenda.1")]:
    tokens |= set(re.findall(r"--[a-z][a-z-]+", path.read_text()))
tokens |= {"agenda", "next", "free", "calendars", "help", "json", "text", "markdown", "html", "ics", "waybar",
           "week", "month", "day", "always", "never", "auto", "today", "tomorrow", "yesterday", "-1d", "+2w",
           "2025-03-01", "2025-03-01T08:00:00Z", "24h", "90m", "3d", "09:00-17:00", "mon-fri", "{title}", "{start}",
           "Europe/Berlin", "UTC+3", "en_US", "de_DE", "ar_SA", "ja_JP"}
dictionary.write_text("".join(f'"{t}"\n' for t in sorted(tokens)))
PY
    DICT=(-dict="$OUT/command-line.dict")
fi
ARTIFACTS=${FUZZ_ARTIFACTS:-$PWD/$OUT/artifacts-$TARGET}  # absolute: the command-line target changes directory
mkdir -p "$ARTIFACTS"
echo "fuzz: $(ls "$CORPUS" | wc -l) inputs in $CORPUS, $SECONDS_TO_RUN s, findings in $ARTIFACTS/"
# LeakSanitizer on: libFuzzer checks each input that allocates more than it
# frees; scripts/lsan.supp names what libraries keep.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0} \
    "$BIN" "$CORPUS" \
    -max_total_time="$SECONDS_TO_RUN" -timeout="${FUZZ_TIMEOUT:-15}" -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 ${DICT[@]+"${DICT[@]}"} "$@"
